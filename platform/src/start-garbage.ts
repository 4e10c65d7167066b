import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** This thread's `gc`, once taken (each thread has a V8 isolate of its own, and with it its own `gc`). */
let threadGc: (() => void) | undefined;

/**
 * Takes `gc` from a new context while `--expose-gc` is briefly on, so no command line needs the flag and no global
 * `gc` is left to the code of the process. V8's flags are the process's, not the thread's: another thread taking
 * its own `gc` at the same moment (the embedded database's thread beside the main one, or a second database's) can
 * turn the flag off between this thread's turning it on and making the context. Each try is microseconds; a few
 * tries get it. Undefined when none did (the caller then skips its collection: it is an optimisation).
 */
function takeGc(): (() => void) | undefined {
  for (let attempt = 0; attempt < 20 && !threadGc; attempt++) {
    setFlagsFromString('--expose-gc');
    try {
      const gc = runInNewContext("typeof gc === 'function' ? gc : undefined") as unknown;
      if (typeof gc === 'function') threadGc = gc as () => void;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  return threadGc;
}

/**
 * One full garbage collection once a process's start is done (reference data checked, loaded into memory and
 * published; on a new database, seeded and projected). That one-off work leaves about half the old generation
 * as garbage, and an idle process allocates too little for V8 to run a major collection by itself, so the heap
 * and its pages stay as the start left them. After this one (about 10 ms), V8's memory reducer gives the pages
 * back within seconds: one process on PostgreSQL after its first start, idle, 349 → 187 MB resident
 * (heap 230 → 60 MB). Never throws: answers the milliseconds it took, or undefined when it could not collect.
 */
export function collectStartGarbage(): number | undefined {
  const gc = takeGc();
  if (!gc) return undefined;
  const t = performance.now();
  gc();
  return performance.now() - t;
}
