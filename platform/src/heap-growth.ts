import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full collection before it runs the next one,
 * in percent, for the servers (`npm start` and each service process; deploy/src/main.ts sets it first thing).
 * V8's own factor adapts to the collector's speed and reaches 4× for a process that allocates fast and spends
 * little time collecting: under the 1,000,000-row CSV export the one-process server's heap grew to 357 MB around
 * 97 MB of live objects before its first full collection (peak RSS 361-520 MB over five runs); under the
 * persisted-calculation load `npm start` peaked at 331-454 MB. At 50 % the same runs peak at 231-295 and 324-330 MB,
 * at the same speed
 * (docs/operations.md, "Memory"; docs/benchmarks.md). A flag of V8 that NODE_OPTIONS does not accept, so it is set
 * from the code; `node --heap-growing-percent=<n> deploy/bin/main.mjs` still chooses another value.
 */
export const HEAP_GROWING_PERCENT = 50;

/** Sets V8's heap growing factor to HEAP_GROWING_PERCENT unless the command line chose one; true when it did. */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((a) => /^--heap[-_]growing[-_]percent(=|$)/.test(a))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
