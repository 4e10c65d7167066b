// Types of deploy/bundle.mjs (plain JavaScript: it runs before anything is compiled).
export declare const ROOT: string;
export declare const DIST: string;
export declare const ENTRIES: { main: string; admin: string; 'admin-keys': string; 'embedded-template': string; 'embedded-pg-worker': string; prestart: string };
export type Entry = keyof typeof ENTRIES;
/** Why the bundle of `entry` cannot be run as it is ('missing', 'stale: …'), or undefined when it is current. */
export declare function bundleProblem(entry: Entry): string | undefined;
export declare function buildBundles(): Promise<number>;
export declare function ensureBundles(opts?: { force?: boolean; quiet?: boolean }): Promise<'fresh' | 'built'>;
export declare function launch(entry: Entry): Promise<void>;
/** The bundle `npm run admin` runs for these arguments (after the script): 'admin-keys' for `keys …` and `integrations …`. */
export declare function adminEntry(argv: string[]): 'admin' | 'admin-keys';
/** esbuild keepNames helper swapped for one that leaves a name already right as it is; throws on an unknown helper. */
export declare function cheapKeepNames(code: string, name: string): string;
/** The esbuild output options of every bundle (names kept, minified whitespace and syntax, ASCII, licences and a linked source map beside it). */
export declare const OUTPUT_OPTIONS: {
  readonly keepNames: true;
  readonly minifyWhitespace: true;
  readonly minifySyntax: true;
  readonly charset: 'ascii';
  readonly legalComments: 'external';
  readonly sourcemap: 'linked';
  readonly sourcesContent: false;
};
