import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { cheapKeepNames, DIST } from '../bundle.mjs';

describe('the bundles keep every name, without redefining names that are already right', () => {
  it('renamed classes and functions of a bundle still report the names they were written with', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vat-names-'));
    try {
      // Two modules declare the same names: bundled into one scope, esbuild renames one of each.
      writeFileSync(join(dir, 'a.ts'), 'export class Migration20260101000000 {}\nexport function helper() { return () => 1; }\n');
      writeFileSync(join(dir, 'b.ts'), 'export class Migration20260101000000 {}\nexport function helper() { const inner = () => 2; return inner; }\n');
      writeFileSync(join(dir, 'entry.ts'), "import * as a from './a';\nimport * as b from './b';\nexport const names = [a.Migration20260101000000.name, b.Migration20260101000000.name, a.helper.name, b.helper.name, b.helper().name];\n");
      const out = await build({ entryPoints: [join(dir, 'entry.ts')], bundle: true, format: 'esm', platform: 'node', keepNames: true, write: false });
      const code = out.outputFiles[0]!.text;
      // esbuild did rename one of each pair (so the names below come from the helper, not from the source).
      expect(code).toMatch(/var Migration202601010000002 = class/);
      expect(code).toMatch(/function helper2\(/);
      const cheap = cheapKeepNames(code, 'test');
      expect(cheap).not.toBe(code);
      writeFileSync(join(dir, 'out.mjs'), cheap);
      const { names } = (await import(pathToFileURL(join(dir, 'out.mjs')).href)) as { names: string[] };
      expect(names).toEqual(['Migration20260101000000', 'Migration20260101000000', 'helper', 'helper', 'inner']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the installed bundles use the helper that skips a name already right (built by npm install)', () => {
    for (const entry of ['main', 'admin']) {
      const code = readFileSync(join(DIST, `${entry}.js`), 'utf8');
      expect(code).toContain('var __name = (target, value) => target.name === value ? target : __defProp(target, "name", { value, configurable: true });');
      expect(code).not.toContain('var __name = (target, value) => __defProp(target, "name", { value, configurable: true });');
    }
  });

  it('a bundle whose keepNames helper is not the known one fails the build', () => {
    expect(() => cheapKeepNames('var __name = (t, v) => t;\n__name(f, "f");', 'x')).toThrow(/keepNames helper/);
    expect(cheapKeepNames('const a = 1;', 'x')).toBe('const a = 1;');
  });
});
