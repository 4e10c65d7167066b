import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { SourceMap } from 'node:module';
import { cheapKeepNames, DIST, OUTPUT_OPTIONS, ROOT } from '../bundle.mjs';

describe('the bundles keep every name, without redefining names that are already right', () => {
  it('renamed classes and functions of a bundle still report the names they were written with', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vat-names-'));
    try {
      // Two modules declare the same names: bundled into one scope, esbuild renames one of each.
      writeFileSync(join(dir, 'a.ts'), 'export class Migration20260101000000 {}\nexport function helper() { return () => 1; }\n');
      writeFileSync(join(dir, 'b.ts'), 'export class Migration20260101000000 {}\nexport function helper() { const inner = () => 2; return inner; }\n');
      writeFileSync(join(dir, 'entry.ts'), "import * as a from './a';\nimport * as b from './b';\nexport const names = [a.Migration20260101000000.name, b.Migration20260101000000.name, a.helper.name, b.helper.name, b.helper().name];\n");
      const { sourcemap: _map, legalComments: _legal, ...options } = OUTPUT_OPTIONS;
      const out = await build({ entryPoints: [join(dir, 'entry.ts')], bundle: true, format: 'esm', platform: 'node', ...options, write: false });
      const code = out.outputFiles![0]!.text;
      // esbuild did rename one of each pair (so the names below come from the helper, not from the source).
      expect(code).toMatch(/var Migration202601010000002 ?= ?class/);
      expect(code).toMatch(/function helper2\(/);
      const cheap = cheapKeepNames(code, 'test');
      expect(cheap).not.toBe(code);
      // The same length: columns after the helper (and the source map) do not move.
      expect(cheap.length).toBe(code.length);
      writeFileSync(join(dir, 'out.mjs'), cheap);
      const { names } = (await import(pathToFileURL(join(dir, 'out.mjs')).href)) as { names: string[] };
      expect(names).toEqual(['Migration20260101000000', 'Migration20260101000000', 'helper', 'helper', 'inner']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the installed bundles (built by npm install) use the helper that skips a name already right, are ASCII, and map to the TypeScript sources', () => {
    for (const entry of ['main', 'admin']) {
      const code = readFileSync(join(DIST, `${entry}.js`), 'utf8');
      expect(code).toContain('__name=(t,v)=>t.name==v?t:__defProp(t,"name",{value:v,configurable:!0})');
      expect(code).not.toContain('__name=(target,value)=>__defProp(target,"name",{value,configurable:!0})');
      // One-byte text: Node keeps a bundle's source as it was decoded, and one non-ASCII character makes all of it two-byte.
      expect(/^[\x00-\x7f]*$/.test(code)).toBe(true);
      expect(code.trimEnd().endsWith(`//# sourceMappingURL=${entry}.js.map`)).toBe(true);
      // A function of the platform package, found in the bundle, maps back to the line that declares it.
      const at = code.indexOf('function canonicalJson(');
      expect(at).toBeGreaterThan(0);
      const before = code.slice(0, at).split('\n');
      const map = new SourceMap(JSON.parse(readFileSync(join(DIST, `${entry}.js.map`), 'utf8')));
      const entryAt = map.findEntry(before.length - 1, before.at(-1)!.length) as { originalSource: string; originalLine: number };
      const source = new URL(entryAt.originalSource, pathToFileURL(join(DIST, `${entry}.js`))).pathname;
      expect(source.startsWith(ROOT)).toBe(true);
      expect(readFileSync(source, 'utf8').split('\n')[entryAt.originalLine]).toContain('function canonicalJson(');
    }
  });

  it('a bundle whose keepNames helper is not the known one fails the build', () => {
    expect(() => cheapKeepNames('var __name = (t, v) => t;\n__name(f, "f");', 'x')).toThrow(/keepNames helper/);
    expect(cheapKeepNames('const a = 1;', 'x')).toBe('const a = 1;');
  });
});
