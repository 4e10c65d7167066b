import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The directory the gateway serves under /app/. */
export const DIST = join(ROOT, 'dist');

/**
 * Bundles the dashboard (Preact, openapi-fetch, the pages and their CSS) into content-hashed files and
 * writes index.html naming them. No inline script or style: the page runs under `script-src 'self'`.
 */
export async function buildDashboard(outDir = DIST): Promise<string[]> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: [join(ROOT, 'src/main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022', 'chrome110', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: 'assets/[name]-[hash]',
    assetNames: 'assets/[name]-[hash]',
    outdir: outDir,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const files = Object.keys(result.metafile.outputs).map((f) => relative(outDir, f));
  const js = files.find((f) => f.endsWith('.js'));
  const css = files.find((f) => f.endsWith('.css'));
  if (!js || !css) throw new Error(`the dashboard build wrote no ${js ? 'CSS' : 'JavaScript'}`);
  const html = readFileSync(join(ROOT, 'src/index.html'), 'utf8').replace('%JS%', js).replace('%CSS%', css);
  writeFileSync(join(outDir, 'index.html'), html);
  return [...files, 'index.html'];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await buildDashboard();
  console.log(`dashboard built: ${files.map((f) => basename(f)).join(', ')}`);
}
