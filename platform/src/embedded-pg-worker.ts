/**
 * The embedded database's own thread (started by startEmbeddedPostgres in ./embedded-pg): opens PGlite and
 * serves it on the Unix socket, so PostgreSQL's work (in WebAssembly) runs beside the JavaScript of the
 * process instead of between it, and a start opens the database while the main thread loads the code.
 *
 * It posts `started` (or `failed`) once. Then it answers `configure` with `configured`, and `stop` (closes
 * the server and PGlite) with `stopped` or `failed`, after which the thread ends.
 */
import { enableCompileCache } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { EmbeddedStartOptions, OpenedEmbeddedPostgres } from './embedded-pg-open';
import { collectStartGarbage } from './start-garbage';

/** `compileCacheDir`: the process's module compile cache (a thread does not inherit it), used for PGlite's code too. */
export type WorkerInput = { dataDir: string; opts: EmbeddedStartOptions; compileCacheDir?: string };
export type WorkerRequest = { type: 'configure'; sessionWaitMs: number } | { type: 'stop' };
export type WorkerMessage =
  | { type: 'started'; url: string; socketDir: string; createdFrom?: string; createdBy?: OpenedEmbeddedPostgres['createdBy']; phases: OpenedEmbeddedPostgres['phases'] }
  | { type: 'failed'; message: string }
  | { type: 'configured' }
  | { type: 'stopped' };

const port = parentPort;
if (!port) throw new Error('embedded-pg-worker runs as a worker thread (startEmbeddedPostgres)');
const post = (m: WorkerMessage) => port.postMessage(m);
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

const { dataDir, opts, compileCacheDir } = workerData as WorkerInput;
if (compileCacheDir) enableCompileCache?.(compileCacheDir);
// Loaded after the compile cache is on (PGlite's JavaScript is large).
const { openEmbeddedPostgres } = await import('./embedded-pg-open');

let opened: OpenedEmbeddedPostgres | undefined;
let stopRequested = false;
port.on('message', (m: WorkerRequest) => {
  if (m.type === 'configure') {
    opened?.setSessionWaitMs(m.sessionWaitMs);
    post({ type: 'configured' });
    return;
  }
  if (stopRequested) return;
  stopRequested = true;
  const stopping = opened ? opened.stop() : Promise.resolve();
  stopping
    .then(
      () => post({ type: 'stopped' }),
      (err: unknown) => post({ type: 'failed', message: messageOf(err) }),
    )
    .finally(() => {
      port.close();
      // Nothing should keep the thread alive now; should something (a PGlite timer), it ends anyway.
      setTimeout(() => process.exit(0), 1_000).unref();
    });
});
try {
  opened = await openEmbeddedPostgres(dataDir, opts);
} catch (err) {
  post({ type: 'failed', message: messageOf(err) });
  port.close();
}
// Once started, the thread answers `configure` and `stop` until it is stopped: nothing after this point may post
// `failed` or close the port (a stop would wait forever for a thread that no longer listens).
if (opened) {
  post({ type: 'started', url: opened.url, socketDir: opened.socketDir, createdFrom: opened.createdFrom, createdBy: opened.createdBy, phases: opened.phases });
  // This thread's start leaves garbage too (opening PGlite): one full collection of its own heap (about 10 MB
  // given back; the main thread collects its own a moment after it listens). It never throws.
  collectStartGarbage();
}
