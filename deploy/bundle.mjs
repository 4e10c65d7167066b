// @ts-check
/**
 * The compiled entry points. `npm start`, `npm run start:service` and `npm run admin` run JavaScript bundled
 * by esbuild from deploy/src, so no process transforms TypeScript at start: the workspace packages and most
 * npm packages inlined (one file to load instead of thousands to resolve), the few that read files beside
 * their own code left in node_modules (EXTERNAL below). The bundles live in deploy/dist (gitignored), built
 * by `postinstall` (`node deploy/bundle.mjs`) and again by whoever finds them stale:
 *
 * - dist/manifest.json lists every workspace source file a bundle was built from (and the package manifests,
 *   the lockfile and tsconfig.json) with its size and mtime; a bundle is fresh while every one of them is
 *   unchanged. `launch` (deploy/bin/*.mjs) rebuilds a stale bundle before running it (a second or two), and
 *   falls back to tsx, with a warning, only when there is no bundle and none can be built. A process never
 *   runs code older than its sources.
 * - Each bundle is one file (no code splitting): a running process has read all of its code, so a rebuild
 *   that replaces the files (each written beside and renamed, the manifest last) never pulls a chunk from
 *   under it.
 * - External packages and Node's built-in modules are `require`d when the module using them first runs, as
 *   a dynamic import in the sources would be (an ESM import of them would be hoisted and load at every start).
 * - `import.meta.url` in a workspace source is rewritten to that source's own URL (relative to the bundle),
 *   so the seed files, migration folders and dashboard assets it locates are found as before.
 *
 * Run by hand: `npm run build` or `node deploy/bundle.mjs` (builds when stale; `--force` always).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { builtinModules } from 'node:module';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'deploy', 'dist');
const MANIFEST = join(DIST, 'manifest.json');
/** Bump when the build options change: a manifest of another format counts as stale. */
const FORMAT = 5;

/** The entry points: bundle name -> source. */
export const ENTRIES = {
  main: 'deploy/src/main.ts',
  admin: 'deploy/src/admin.ts',
  // The key commands alone (`keys …`, `integrations …`): a small bundle, so `admin keys create` reads and compiles
  // none of the other commands' code (deploy/bin/admin.mjs chooses; adminEntry below).
  'admin-keys': 'deploy/src/admin-keys-main.ts',
  'embedded-template': 'deploy/src/embedded-template.ts',
  // The embedded database's thread (platform/src/embedded-pg.ts finds it through BUNDLE_DIST).
  'embedded-pg-worker': 'platform/src/embedded-pg-worker.ts',
  // Run by `launch('main')` before the main bundle: starts opening the embedded database early.
  prestart: 'deploy/src/prestart.ts',
};

/** Set by `launch` to deploy/dist: bundled code starts its worker threads from the compiled files there. */
const BUNDLE_DIST = Symbol.for('vat.bundleDist');

/** @typedef {{ format: number; builtAt: string; entries: Record<string, string>; inputs: Record<string, [number, number]> }} Manifest */

/** @returns {Manifest | undefined} */
function readManifest() {
  try {
    return JSON.parse(readFileSync(MANIFEST, 'utf8'));
  } catch {
    return undefined;
  }
}

/** `[size, mtimeMs]` of a file, or undefined when it is gone. */
function stamp(file) {
  try {
    const s = statSync(file);
    return /** @type {[number, number]} */ ([s.size, s.mtimeMs]);
  } catch {
    return undefined;
  }
}

/**
 * Why the bundle of `entry` cannot be run as it is ('missing' or 'stale: <file>'), or undefined when it
 * is built from the current sources.
 */
export function bundleProblem(entry) {
  const manifest = readManifest();
  if (!manifest || manifest.format !== FORMAT || manifest.entries[entry] !== ENTRIES[entry] || !existsSync(join(DIST, `${entry}.js`))) return 'missing';
  for (const [file, [size, mtime]] of Object.entries(manifest.inputs)) {
    const now = stamp(join(ROOT, file));
    if (!now || now[0] !== size || now[1] !== mtime) return `stale: ${file} changed`;
  }
  return undefined;
}

const BUNDLE_URL = '__vatBundleUrl';

/** A source file's path relative to the bundles (the URL it is found at from `BUNDLE_URL`) and a short name made from it. */
function bundleRelative(/** @type {string} */ path) {
  const rel = relative(DIST, path).split(sep).join('/');
  return { rel, id: createHash('sha256').update(rel).digest('hex').slice(0, 12) };
}
/** The workspace sources (not node_modules): the only files whose `import.meta.url` is rewritten. */
const WORKSPACE_SOURCE = new RegExp(`^${ROOT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(gen|platform|services|gateway|seeds|deploy|dashboard)/.*\\.[cm]?ts$`);

/**
 * Rewrites `import.meta.url` in a workspace source to the URL of that source, relative to the bundle: esbuild
 * compiles the file with `import.meta.url` defined as a name of its own, declared in front of it from the
 * bundle's URL (set by the banner). A bundled npm package keeps `import.meta.url` (the bundle's).
 */
function importMetaUrlPlugin(/** @type {typeof import('esbuild')} */ esbuild) {
  return {
    name: 'source-import-meta-url',
    /** @param {any} build */
    setup(build) {
      build.onLoad({ filter: WORKSPACE_SOURCE }, async (/** @type {{ path: string }} */ args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const { rel, id } = bundleRelative(args.path);
        const name = `__vatSourceUrl_${id}`;
        const js = await esbuild.transform(text, { loader: 'ts', format: 'esm', target: 'node24', define: { 'import.meta.url': name }, sourcefile: args.path });
        return { contents: `const ${name} = new URL(${JSON.stringify(rel)}, ${BUNDLE_URL}).href;\n${js.code}`, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * npm packages that stay `import`s of node_modules: those that read files beside their own code (`__dirname`,
 * their package.json, data files, WebAssembly) or load worker files, and optional native add-ons. Every
 * other package is bundled; the build fails when bundled code still refers to `__dirname` or `__filename`
 * (a package that needs adding here).
 */
const EXTERNAL = ['@electric-sql/pglite', 'ioredis', 'pdfkit', 'fontkit', 'pino', 'thread-stream', 'pg-native', 'esbuild', 'tsx'];

/**
 * Bundled npm packages whose code names its own directory (`__dirname`, `__filename`) only to read files shipped
 * beside it: the API docs' plugins (@fastify/swagger reads its package.json, @fastify/swagger-ui its static
 * assets). Bundled, each such name is rewritten to the file's place in node_modules (relative to the bundle, as
 * `import.meta.url` of a workspace source is), so they read the same files; loading them from the bundle instead
 * of from ≈ 100 files in node_modules took about 20 ms off a restart (docs/benchmarks.md).
 */
const RELOCATED = ['@fastify/swagger', '@fastify/swagger-ui'];

/**
 * Makes each external package a `require` of it, evaluated when the module importing it is first used (as in
 * the sources, where `keys create` never loads pdfkit): an ESM `import` of an external package would be hoisted
 * to the top of the bundle and loaded at every start. Node's own interop applies (`import x from` a CommonJS
 * package is its `module.exports`).
 */
function lazyExternalsPlugin() {
  // Node's built-in modules too: an ESM import of node:http, hoisted to the top, would load its fetch
  // implementation (undici) at every start whether or not anything makes an HTTP request.
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  const isExternal = (/** @type {string} */ path) => builtins.has(path) || path.startsWith('node:') || path.startsWith('@opentelemetry/') || EXTERNAL.some((p) => path === p || path.startsWith(`${p}/`));
  return {
    name: 'lazy-externals',
    /** @param {any} build */
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (/** @type {{ path: string; namespace: string }} */ args) => {
        if (!isExternal(args.path)) return undefined;
        // The virtual module's own `require` stays a run-time require of node_modules.
        if (args.namespace === 'lazy-external') return { path: args.path, external: true };
        return { path: args.path, namespace: 'lazy-external' };
      });
      build.onLoad({ filter: /.*/, namespace: 'lazy-external' }, (/** @type {{ path: string }} */ args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };
}

/** The files of RELOCATED packages: `__dirname` and `__filename` become the file's own place in node_modules. */
function relocatedDirnamePlugin() {
  const pattern = new RegExp(`/node_modules/(${RELOCATED.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})/.*\\.[cm]?js$`);
  return {
    name: 'relocated-dirname',
    /** @param {any} build */
    setup(build) {
      build.onLoad({ filter: pattern }, (/** @type {{ path: string }} */ args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!/\b__(dirname|filename)\b/.test(text)) return undefined;
        const { rel, id } = bundleRelative(args.path);
        const prelude = `var __vatFile_${id} = require('node:url').fileURLToPath(new URL(${JSON.stringify(rel)}, ${BUNDLE_URL})), __vatDir_${id} = require('node:path').dirname(__vatFile_${id});\n`;
        return { contents: prelude + text.replace(/\b__dirname\b/g, `__vatDir_${id}`).replace(/\b__filename\b/g, `__vatFile_${id}`), loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * How the bundles are written: every name kept (migration classes are listed by class name), whitespace and
 * redundant syntax removed, ASCII only. A bundle's text is what Node reads, decodes and hashes for its compile
 * cache at every start, and keeps in memory for lazy compilation: minified and ASCII (non-ASCII characters
 * escaped, licence comments in `<bundle>.js.LEGAL.txt`) the main bundle is 5.2 MB held as one-byte characters
 * instead of 7.9 MB held as two-byte ones (a few non-ASCII characters in comments made the whole text two-byte).
 * Identifiers are not minified: renamed functions would all need their name set again (see `cheapKeepNames`).
 * Each bundle has a source map beside it (`<bundle>.js.map`, linked): stack traces name the TypeScript sources
 * under `NODE_OPTIONS=--enable-source-maps` (docs/operations.md).
 */
export const OUTPUT_OPTIONS = /** @type {const} */ ({ keepNames: true, minifyWhitespace: true, minifySyntax: true, charset: 'ascii', legalComments: 'external', sourcemap: 'linked', sourcesContent: false });

/** esbuild's `keepNames` helper, as it emits it with `OUTPUT_OPTIONS` (one declarator of a `var` list). */
const KEEP_NAMES_HELPER = '__name=(target,value)=>__defProp(target,"name",{value,configurable:!0})';
/**
 * The same helper, but it leaves a function whose name is already right as it is. `keepNames` wraps every named
 * function, closures included (the bundled packages' too), and a `defineProperty` on a function each time one is
 * created made every request 20-40 % dearer than the same code unbundled; nearly all of them already carry their
 * name, and a renamed one is still renamed. Exactly as long as esbuild's (`==` compares two strings as `===`
 * does), so every column after it on its line, and the source map, stay where they were.
 */
const CHEAP_KEEP_NAMES_HELPER = '__name=(t,v)=>t.name==v?t:__defProp(t,"name",{value:v,configurable:!0})';

/** Swaps the helper in one bundle; a bundle that uses `__name` without esbuild's known helper fails the build. */
/** @param {string} code @param {string} name @returns {string} */
export function cheapKeepNames(code, name) {
  if (CHEAP_KEEP_NAMES_HELPER.length !== KEEP_NAMES_HELPER.length) throw new Error('deploy/bundle.mjs: the cheap keepNames helper must be as long as esbuild\'s');
  if (!code.includes('__name(')) return code;
  const at = code.indexOf(KEEP_NAMES_HELPER);
  if (at < 0 || code.indexOf(KEEP_NAMES_HELPER, at + 1) >= 0) throw new Error(`deploy/dist/${name}.js: esbuild's keepNames helper is not the one deploy/bundle.mjs replaces (esbuild changed it?); update KEEP_NAMES_HELPER`);
  return code.slice(0, at) + CHEAP_KEEP_NAMES_HELPER + code.slice(at + KEEP_NAMES_HELPER.length);
}

/**
 * Builds every bundle into a fresh directory beside deploy/dist, then moves each file into place (the
 * manifest last). Returns the build time in ms.
 */
export async function buildBundles() {
  const started = performance.now();
  const esbuild = await import('esbuild');
  const work = `${DIST}.build-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  try {
    const result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, src]) => [name, join(ROOT, src)])),
      outdir: work,
      bundle: true,
      splitting: false,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      ...OUTPUT_OPTIONS,
      metafile: true,
      logLevel: 'warning',
      // Bundled CommonJS code calls `require` for Node built-ins and the external packages.
      banner: { js: `import { createRequire as __vatCreateRequire } from 'node:module';\nconst require = __vatCreateRequire(import.meta.url);\nconst ${BUNDLE_URL} = import.meta.url;` },
      plugins: [lazyExternalsPlugin(), relocatedDirnamePlugin(), importMetaUrlPlugin(esbuild)],
    });
    for (const name of Object.keys(ENTRIES)) {
      const code = cheapKeepNames(readFileSync(join(work, `${name}.js`), 'utf8'), name);
      writeFileSync(join(work, `${name}.js`), code);
      const at = code.search(/\b__(dirname|filename)\b/);
      if (at >= 0) {
        const from = code.lastIndexOf('\n// ', at);
        throw new Error(`bundled code refers to __dirname/__filename (${code.slice(from + 1, code.indexOf('\n', from + 1))}); add that package to EXTERNAL in deploy/bundle.mjs`);
      }
    }
    /** @type {Record<string, [number, number]>} */
    const inputs = {};
    // The workspace sources; the installed packages are covered by the lockfile (an install changes it).
    for (const file of Object.keys(result.metafile.inputs)) {
      if (file.includes('node_modules/') || file.startsWith('lazy-external:')) continue;
      const s = stamp(join(ROOT, file));
      if (s) inputs[file] = s;
    }
    // Package manifests decide how workspace imports resolve (exports maps); esbuild reads tsconfig.json.
    for (const file of ['package.json', 'package-lock.json', 'tsconfig.json', ...workspaceManifests()]) {
      const s = stamp(join(ROOT, file));
      if (s) inputs[file] = s;
    }
    mkdirSync(DIST, { recursive: true });
    for (const name of Object.keys(ENTRIES)) {
      // The source map and licences first: a process started meanwhile finds the map of the code it runs.
      for (const extra of [`${name}.js.map`, `${name}.js.LEGAL.txt`]) if (existsSync(join(work, extra))) renameSync(join(work, extra), join(DIST, extra));
      renameSync(join(work, `${name}.js`), join(DIST, `${name}.js`));
    }
    /** @type {Manifest} */
    const manifest = { format: FORMAT, builtAt: new Date().toISOString(), entries: ENTRIES, inputs };
    const partial = `${MANIFEST}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify(manifest));
    renameSync(partial, MANIFEST);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return Math.round(performance.now() - started);
}

function workspaceManifests() {
  /** @type {{ workspaces?: string[] }} */
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  return (pkg.workspaces ?? []).map((w) => `${w}/package.json`);
}

/** Builds when any bundle is missing or stale (or always, with `force`); says what it did on stderr. */
export async function ensureBundles({ force = false, quiet = false } = {}) {
  const problem = Object.keys(ENTRIES).map(bundleProblem).find((p) => p !== undefined);
  if (!force && problem === undefined) return 'fresh';
  const ms = await buildBundles();
  if (!quiet) process.stderr.write(`[bundle] built deploy/dist (${force ? 'forced' : problem}) in ${ms} ms\n`);
  return 'built';
}

/** The bundle of `entry` as a file URL, built first when stale; undefined when none can be built. */
async function freshBundle(entry) {
  const problem = bundleProblem(entry);
  if (problem === undefined) return pathToFileURL(join(DIST, `${entry}.js`));
  try {
    const ms = await buildBundles();
    process.stderr.write(`[bundle] deploy/dist was ${problem}; rebuilt in ${ms} ms\n`);
    return pathToFileURL(join(DIST, `${entry}.js`));
  } catch (err) {
    process.stderr.write(`[bundle] warning: could not build deploy/dist (${err instanceof Error ? err.message : String(err)}); running the TypeScript sources through tsx instead (slower start)\n`);
    return undefined;
  }
}

/**
 * `npm start`'s first step (deploy/src/prestart.ts): the embedded database starts opening on its own thread
 * while the main bundle loads. Its failure to run only costs that head start (main opens the database itself).
 */
async function prestart() {
  try {
    const mod = await import(pathToFileURL(join(DIST, 'prestart.js')).href);
    mod.prestart(process.argv, process.env);
  } catch {
    /* main starts the database itself */
  }
}

/**
 * The bundle `npm run admin` runs for its arguments: the key commands' own bundle when the command line starts with
 * their group (`keys …`, `integrations …`), else the whole CLI (which runs those commands as well).
 * @param {string[]} argv the arguments after the script
 */
export function adminEntry(argv) {
  return argv[0] === 'keys' || argv[0] === 'integrations' ? 'admin-keys' : 'admin';
}

/**
 * Runs an entry point in this process: the compiled bundle (rebuilt when stale), else the TypeScript source
 * through tsx. V8's code cache for the bundle and node_modules is kept in node_modules/.cache (Node's module
 * compile cache), so later starts skip most of the parsing and compiling.
 */
export async function launch(entry) {
  const mod = await import('node:module');
  mod.enableCompileCache?.(join(ROOT, 'node_modules', '.cache', 'vat-node-compile-cache'));
  const bundle = await freshBundle(entry);
  if (bundle) {
    /** @type {any} */ (globalThis)[BUNDLE_DIST] = DIST;
    if (entry === 'main') await prestart();
    await import(bundle.href);
    return;
  }
  await import('tsx');
  await import(pathToFileURL(join(ROOT, ENTRIES[entry])).href);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await ensureBundles({ force: process.argv.includes('--force') });
  } catch (err) {
    // At install a failed build only costs start time (the entry points fall back to tsx, with a warning).
    const postinstall = process.argv.includes('--postinstall');
    process.stderr.write(`[bundle] ${postinstall ? 'warning: ' : ''}could not build deploy/dist: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = postinstall ? 0 : 1;
  }
}

