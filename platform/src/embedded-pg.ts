import { existsSync } from 'node:fs';
import { getCompileCacheDir } from 'node:module';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EmbeddedStartOptions, OpenedEmbeddedPostgres } from './embedded-pg-open';
import type { WorkerInput, WorkerMessage, WorkerRequest } from './embedded-pg-worker';

export { embeddedUrl, runningEmbeddedUrl } from './embedded-pg-runtime';

export type EmbeddedPostgres = Omit<OpenedEmbeddedPostgres, 'setSessionWaitMs' | 'stop'> & {
  /** The data directory, resolved. */
  dataDir: string;
  /** How long a message waits for the session held by another connection, for connections from now on. */
  setSessionWaitMs(ms: number): Promise<void>;
  /**
   * Called when the database's thread ends on its own (PGlite aborted): every query fails from then on.
   * Until one is set, such an error is thrown out of the event loop, ending the process as a crash of PGlite
   * on the main thread would.
   */
  onLost(handler: (err: Error) => void): void;
  /** Closes the server and PGlite and ends the database's thread. */
  stop(): Promise<void>;
};

/** Where the compiled entry points live when this process runs them (set by deploy/bundle.mjs's `launch`). */
const BUNDLE_DIST = Symbol.for('vat.bundleDist');

/** The worker's script: the compiled one beside the running bundle, else the TypeScript source through tsx. */
function workerScript(): { url: URL; execArgv?: string[] } {
  const dist = (globalThis as { [BUNDLE_DIST]?: string })[BUNDLE_DIST];
  const compiled = dist ? join(dist, 'embedded-pg-worker.js') : undefined;
  if (compiled && existsSync(compiled)) return { url: pathToFileURL(compiled) };
  return { url: new URL('./embedded-pg-worker.ts', import.meta.url), execArgv: ['--import', 'tsx'] };
}

/**
 * Opens PGlite on `<dataDir>/pg` on a thread of its own (./embedded-pg-worker) and serves it over the
 * PostgreSQL wire protocol on the Unix socket `<dataDir>/run/.s.PGSQL.5432`, so the same MikroORM/pg code runs
 * against it as against a real server, and PostgreSQL's work runs beside this thread's. See
 * ./embedded-pg-open for the files, the socket lock and the templates. The thread is started before this
 * function first awaits anything: a caller can start it and go on loading code meanwhile.
 */
export function startEmbeddedPostgres(dataDir: string, opts: EmbeddedStartOptions = {}): Promise<EmbeddedPostgres> {
  // Every file PGlite creates from now on, for as long as the process runs, is private: the umask is the
  // process's, and a worker thread cannot set it.
  process.umask(0o077);
  const script = workerScript();
  // The process's compile cache (getCompileCacheDir gives its versioned subdirectory) for the thread too.
  const cache = getCompileCacheDir?.();
  const input: WorkerInput = { dataDir, opts, ...(cache ? { compileCacheDir: dirname(cache) } : {}) };
  // The thread's own JavaScript is small (PGlite's glue and the wire protocol): a young generation of 8 MB instead
  // of V8's default keeps its footprint down (PGlite's WebAssembly memory is outside the JavaScript heap).
  const worker = new Worker(script.url, { workerData: input, resourceLimits: { maxYoungGenerationSizeMb: 8 }, ...(script.execArgv ? { execArgv: script.execArgv } : {}) });
  return databaseThread(worker, dataDir);
}

/**
 * The main thread's side of the database thread's messages (./embedded-pg-worker): resolves once it posts
 * `started`, rejects when it fails or ends first, and afterwards reports its end on its own to `onLost`.
 * Exported for the tests, which drive it with a thread of their own.
 */
export function databaseThread(worker: Worker, dataDir: string): Promise<EmbeddedPostgres> {
  let state: 'starting' | 'running' | 'stopping' | 'ended' = 'starting';
  let lostHandler: ((err: Error) => void) | undefined;
  let stopping: Promise<void> | undefined;
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  /** Posts a request and waits for the thread's answer of one of `answers` (undefined: it ended first). */
  const ask = (request: WorkerRequest, answers: WorkerMessage['type'][]) =>
    new Promise<WorkerMessage | undefined>((resolve) => {
      const onMessage = (m: WorkerMessage) => {
        if (!answers.includes(m.type)) return;
        worker.off('message', onMessage);
        resolve(m);
      };
      worker.on('message', onMessage);
      void ended.then(() => resolve(undefined));
      worker.postMessage(request);
    });
  const lost = (err: Error) => {
    if (state !== 'running') return;
    state = 'ended';
    if (lostHandler) lostHandler(err);
    else
      setImmediate(() => {
        throw err;
      });
  };
  return new Promise<EmbeddedPostgres>((resolve, reject) => {
    const fail = (err: Error) => {
      if (state !== 'starting') return;
      state = 'ended';
      worker.off('message', onMessage);
      void worker.terminate();
      reject(err);
    };
    const onMessage = (m: WorkerMessage) => {
      if (m.type === 'failed') return fail(new Error(m.message));
      if (m.type !== 'started' || state !== 'starting') return;
      worker.off('message', onMessage);
      state = 'running';
      resolve({
        url: m.url,
        socketDir: m.socketDir,
        dataDir: resolvePath(dataDir),
        createdFrom: m.createdFrom,
        createdBy: m.createdBy,
        phases: m.phases,
        async setSessionWaitMs(ms) {
          const reply = await ask({ type: 'configure', sessionWaitMs: ms }, ['configured']);
          if (!reply) throw new Error('the embedded database has stopped');
        },
        onLost(handler) {
          lostHandler = handler;
        },
        stop() {
          // One stop, however often it is called (a second caller waits for the same one).
          stopping ??= (async () => {
            if (state === 'ended') return;
            state = 'stopping';
            const reply = await ask({ type: 'stop' }, ['stopped', 'failed']);
            await ended;
            state = 'ended';
            if (reply?.type === 'failed') throw new Error(reply.message);
          })();
          return stopping;
        },
      });
    };
    worker.on('message', onMessage);
    worker.on('error', (err) => (state === 'starting' ? fail(err) : lost(err)));
    worker.once('exit', (code) => {
      if (state === 'starting') fail(new Error(`the embedded database's thread ended while it started (exit code ${code})`));
      else lost(new Error(`the embedded database's thread ended (exit code ${code})`));
    });
  });
}
