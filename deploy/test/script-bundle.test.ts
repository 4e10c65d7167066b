import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { asScript, DIST, ROOT } from '../bundle.mjs';

const NODE = join(ROOT, 'node_modules/node/bin/node');
const BANNER = "import { createRequire as __vatCreateRequire } from 'node:module';\nconst require = __vatCreateRequire(import.meta.url);\n";
const dirs: string[] = [];
/** Inside the checkout (node_modules/.cache), so that packages resolve from it as from deploy/dist. */
const tempDir = () => {
  const dir = mkdtempSync(join(ROOT, 'node_modules', '.cache', 'vat-script-test-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Bundles `source` as deploy/bundle.mjs does (ESM with its banner) and writes its script form into `dir`. */
async function scriptOf(dir: string, source: string, name = 'entry'): Promise<string> {
  writeFileSync(join(dir, `${name}.src.ts`), source);
  const out = await build({ entryPoints: [join(dir, `${name}.src.ts`)], bundle: true, format: 'esm', platform: 'node', write: false, banner: { js: BANNER.trimEnd() } });
  const file = join(dir, `${name}.js`);
  writeFileSync(file, asScript(out.outputFiles[0]!.text, name));
  writeFileSync(join(dir, `${name}.meta.mjs`), 'export const resolve = (specifier) => import.meta.resolve(specifier);\n');
  return file;
}

/** Runs `file` through runScript in a new Node process with `cacheDir`; answers what it printed and the cache it found. */
function run(file: string, cacheDir: string): { out: Record<string, unknown>; cache: string } {
  const launcher = `import { runScript } from ${JSON.stringify(pathToFileURL(join(ROOT, 'deploy/bundle.mjs')).href)};
const cache = await runScript(${JSON.stringify(file)}, { cacheDir: ${JSON.stringify(cacheDir)} });
setTimeout(() => console.log(JSON.stringify({ out: globalThis.out, cache })), 50);`;
  return JSON.parse(execFileSync(NODE, ['--input-type=module', '-e', launcher], { cwd: ROOT, encoding: 'utf8' })) as { out: Record<string, unknown>; cache: string };
}

describe('a bundle run as a script with its own code cache (deploy/bundle.mjs: asScript, runScript)', () => {
  const SOURCE = `
const here = import.meta.url;
let strict = false;
try {
  // @ts-expect-error an undeclared name: only sloppy code creates it
  undeclaredName = 1;
} catch {
  strict = true;
}
const resolved = import.meta.resolve('esbuild');
const { sep } = require('node:path');
const later = await Promise.resolve('after a top-level await');
function line(): number {
  return Number(/entry\\.js:(\\d+)/.exec(new Error().stack ?? '')?.[1]);
}
(globalThis as any).out = { here, strict, resolved, sep, later, line: line() };
`;

  it('runs as the module would: its own URL, strict, import.meta.resolve from its place, require, top-level await, same lines', async () => {
    const dir = tempDir();
    const file = await scriptOf(dir, SOURCE);
    const { out } = run(file, join(dir, 'cache'));
    expect(out).toMatchObject({ here: pathToFileURL(file).href, strict: true, sep: '/', later: 'after a top-level await' });
    expect(out.resolved).toBe(pathToFileURL(join(ROOT, 'node_modules/esbuild/lib/main.js')).href);
    // the script form keeps every line where the module had it
    const esm = readFileSync(file, 'utf8').split('\n');
    expect(esm[(out.line as number) - 1]).toContain('new Error().stack');
  });

  it('the first run makes the cache, the next one uses it; another bundle makes its own and the old one goes', async () => {
    const dir = tempDir();
    const cacheDir = join(dir, 'cache');
    const file = await scriptOf(dir, SOURCE);
    expect(run(file, cacheDir).cache).toBe('absent');
    const made = readdirSync(cacheDir);
    expect(made).toEqual([expect.stringMatching(/^entry-v\d+\.\d+\.\d+-[0-9a-f]+-[0-9a-f]+\.v8cache$/)]);
    expect(run(file, cacheDir).cache).toBe('used');
    // the same length, other text: V8 alone would take the old cache for it (it checks the length only)
    const text = readFileSync(file, 'utf8');
    const other = text.replace('after a top-level await', 'after a top-level AWAIT');
    expect(other).not.toBe(text);
    expect(other).toHaveLength(text.length);
    writeFileSync(file, other);
    const changed = run(file, cacheDir);
    expect(changed.cache).toBe('absent');
    expect(changed.out.later).toBe('after a top-level AWAIT');
    const now = readdirSync(cacheDir);
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(made[0]);
    // a damaged cache is refused by V8 and made again
    writeFileSync(join(cacheDir, now[0]!), Buffer.alloc(64, 7));
    expect(run(file, cacheDir).cache).toBe('refused');
    expect(run(file, cacheDir).cache).toBe('used');
  });

  it('a process that exits before its start is done (a usage message while an image is built) leaves the cache too', async () => {
    const dir = tempDir();
    const cacheDir = join(dir, 'cache');
    const file = await scriptOf(dir, "if (process.argv.includes('--help')) { console.error('usage'); process.exit(2); }\n(globalThis as any).out = { started: true };\n");
    const launcher = `import { runScript } from ${JSON.stringify(pathToFileURL(join(ROOT, 'deploy/bundle.mjs')).href)};\nawait runScript(${JSON.stringify(file)}, { cacheDir: ${JSON.stringify(cacheDir)} });`;
    expect(() => execFileSync(NODE, ['--input-type=module', '-e', launcher, '--', '--help'], { cwd: ROOT, stdio: 'pipe' })).toThrow(/usage/);
    expect(readdirSync(cacheDir)).toEqual([expect.stringMatching(/^entry-.*\.early\.v8cache$/)]);
    // used by the next process until one gets through its start and leaves the full cache
    expect(run(file, cacheDir).cache).toBe('early');
    expect(readdirSync(cacheDir).sort()).toEqual([expect.stringMatching(/^entry-.*[0-9a-f]\.early\.v8cache$/), expect.stringMatching(/^entry-.*[0-9a-f]\.v8cache$/)].sort());
    expect(run(file, cacheDir).cache).toBe('used');
  });

  it('a bundle that cannot run as a script fails the build', () => {
    expect(() => asScript('const a = 1;\n', 'x')).toThrow(/banner/);
    expect(() => asScript(`${BANNER}export { a };\n`, 'x')).toThrow(/import\/export statement/);
    expect(() => asScript(`${BANNER}import x from 'y';\n`, 'x')).toThrow(/import\/export statement/);
    expect(() => asScript(`${BANNER}const d = import.meta.dirname;\n`, 'x')).toThrow(/import\.meta other than/);
    // a dynamic import is fine
    expect(asScript(`${BANNER}const m = await import('node:os');\n`, 'x')).toContain("await import('node:os')");
  });

  it('the installed main bundle is in script form beside its meta module', () => {
    const code = readFileSync(join(DIST, 'main.js'), 'utf8');
    expect(code.startsWith("(async function (__vatCreateRequire, __vatImportMeta) { 'use strict';\n")).toBe(true);
    expect(code).not.toMatch(/import\.meta/);
    expect(existsSync(join(DIST, 'main.meta.mjs'))).toBe(true);
  });
});
