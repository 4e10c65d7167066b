/**
 * The first thing `npm start` runs (deploy/bundle.mjs's `launch('main')`, before it loads the main bundle): when
 * this process will run everything on the embedded database, that database starts opening on its own thread
 * now, while the main thread loads and compiles the rest of the code. deploy/src/main.ts takes it over once its
 * configuration is read (and, should that configuration name another directory, stops it and opens the right
 * one; should it fail to read, exits). Nothing here validates configuration: it only looks whether the process
 * will use the embedded database and where.
 */
import { DEFAULT_DATA_DIR } from '@vat/platform/config-defaults';
import { openEmbeddedDatabase, type StartedEmbedded } from './embedded-database';

const PRESTARTED = Symbol.for('vat.prestartedDatabase');
type Prestarted = { dataDir: string; started: Promise<StartedEmbedded> };

export function prestart(argv: readonly string[], env: NodeJS.ProcessEnv): void {
  if ((argv[2] ?? 'all') !== 'all' || env.DATABASE_URL) return;
  const dataDir = env.DATA_DIR ?? DEFAULT_DATA_DIR;
  const started = openEmbeddedDatabase(dataDir);
  // Whoever takes it handles its failure; until then it must not count as unhandled.
  started.catch(() => undefined);
  (globalThis as { [PRESTARTED]?: Prestarted })[PRESTARTED] = { dataDir, started };
}

/** The database prestart opened, once (undefined when it did not run, or it was taken). */
export function takePrestarted(): Prestarted | undefined {
  const g = globalThis as { [PRESTARTED]?: Prestarted };
  const taken = g[PRESTARTED];
  delete g[PRESTARTED];
  return taken;
}
