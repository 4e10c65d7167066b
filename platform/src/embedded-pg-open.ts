import { join, resolve } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { embeddedTemplateDir, replenishSpare, seedFromEmbeddedTemplate } from './embedded-pg-template';
import { makePrivateDir, makeTreePrivate } from './embedded-pg-files';
import { advertise, embeddedUrl, refuseOlderRunningVersion, SOCKET_NAME, socketDirFor, unadvertise } from './embedded-pg-runtime';
import { EmbeddedPgServer, SocketInUse } from './embedded-pg-server';

/**
 * The embedded database opened on the calling thread. `npm start`, the admin CLI and the tests use
 * startEmbeddedPostgres (./embedded-pg), which runs this on a thread of its own (./embedded-pg-worker).
 */

/** `spareAfterMs`: when the template's next spare copy is made after the database opened (default SPARE_AFTER_MS). */
export type EmbeddedStartOptions = { advertise?: boolean; sessionWaitMs?: number; templates?: readonly string[]; spareAfterMs?: number };

export type OpenedEmbeddedPostgres = {
  url: string;
  /** The directory holding the Unix socket (libpq's `host`). */
  socketDir: string;
  /** The template the data directory was created from by this start (undefined: it existed, or initdb ran). */
  createdFrom?: string;
  /** How: by taking the template's spare copy (one rename; a new spare is made meanwhile) or by copying it. */
  createdBy?: 'spare' | 'copy';
  /** Wall-clock ms of this start's phases: the template copy (0 when none), PGlite's open, making the tree private. */
  phases: { copyMs: number; openMs: number; privateMs: number };
  /** How long a message waits for the session held by another connection (SQLSTATE 55P03 after), for connections from now on. */
  setSessionWaitMs(ms: number): void;
  stop(): Promise<void>;
};

/** How long after the database opened the template's next spare copy is made (a start is over by then). */
const SPARE_AFTER_MS = 5_000;

/**
 * PostgreSQL's buffer pool inside PGlite: 32 MB instead of the cluster's 128 MB (initdb's default). PGlite
 * allocates the whole pool in its WebAssembly memory and touches every page of it at start, so the pool's size is
 * resident from the first second: 128 MB put `npm start`'s peak at 412–417 MB, 32 MB puts it at about 300 MB, the
 * start a little faster and the persisted calculation's throughput unchanged within the spread (docs/benchmarks.md).
 * Pages read past the pool come from the operating system's page cache. A command-line setting: it applies to
 * every data directory, whatever its postgresql.conf says.
 */
export const EMBEDDED_SHARED_BUFFERS = '32MB';
const EMBEDDED_START_PARAMS = [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`];

/**
 * Opens PGlite on `<dataDir>/pg` and serves it over the PostgreSQL wire protocol on the Unix socket
 * `<dataDir>/run/.s.PGSQL.5432`, so the same MikroORM/pg code runs against it as against a real server.
 * No TCP port: the data directory (0700; inside it directories 0700 and files 0600, kept so by the
 * process umask) and the socket in it are this user's alone. With `advertise`, runtime.json says where.
 */
export async function openEmbeddedPostgres(dataDir: string, opts: EmbeddedStartOptions = {}): Promise<OpenedEmbeddedPostgres> {
  const dir = resolve(dataDir);
  const socketDir = socketDirFor(dir);
  refuseOlderRunningVersion(dir);
  // Every file PGlite creates from now on, for as long as the process runs, is private (the umask is the
  // process's: a worker thread cannot set it, so startEmbeddedPostgres sets it before starting one).
  if (isMainThread) process.umask(0o077);
  makePrivateDir(dir);
  makePrivateDir(socketDir);
  const server = await listen(join(socketDir, SOCKET_NAME), dir, opts.sessionWaitMs);
  if (opts.advertise) advertise(dir, socketDir);
  let db: PGlite;
  let createdFrom: string | undefined;
  let createdBy: OpenedEmbeddedPostgres['createdBy'];
  let phases: OpenedEmbeddedPostgres['phases'];
  try {
    ({ db, createdFrom, createdBy, phases } = await openPrivately(dir, opts.templates ?? [embeddedTemplateDir()]));
  } catch (err) {
    if (opts.advertise) unadvertise(dir);
    await server.close();
    throw err;
  }
  server.serve(db);
  // The template's spare copy (taken by this start, or not made yet) is made again once the start is over
  // (SPARE_AFTER_MS, files copied on libuv's threads, so the copy does not compete with the start for the disk),
  // or when the database stops before that; stop waits for it.
  let replenishing: Promise<boolean> | undefined;
  const template = createdBy ? createdFrom : undefined;
  const replenish = () => (template ? (replenishing ??= replenishSpare(template).catch(() => false)) : undefined);
  const later = template ? setTimeout(replenish, opts.spareAfterMs ?? SPARE_AFTER_MS).unref() : undefined;
  return {
    url: embeddedUrl(socketDir),
    socketDir,
    createdFrom,
    createdBy,
    phases,
    setSessionWaitMs: (ms) => server.setSessionWaitMs(ms),
    async stop() {
      if (opts.advertise) unadvertise(dir);
      clearTimeout(later);
      await server.close();
      await db.close();
      await replenish();
    },
  };
}

/**
 * Opens PGlite on `<dir>/pg`, then makes what it unpacked (or an older version wrote) private. A new data
 * directory starts as a copy of the first complete template cluster of `templates` (no initdb) when there is one.
 */
async function openPrivately(dir: string, templates: readonly string[]): Promise<{ db: PGlite; createdFrom?: string; createdBy?: 'spare' | 'copy'; phases: OpenedEmbeddedPostgres['phases'] }> {
  const t0 = performance.now();
  let createdFrom: string | undefined;
  let createdBy: 'spare' | 'copy' | undefined;
  for (const t of templates) {
    createdBy = seedFromEmbeddedTemplate(join(dir, 'pg'), t);
    if (!createdBy) continue;
    createdFrom = t;
    break;
  }
  const t1 = performance.now();
  const db = await PGlite.create({ dataDir: join(dir, 'pg'), startParams: EMBEDDED_START_PARAMS });
  const t2 = performance.now();
  try {
    makeTreePrivate(dir);
    const phases = { copyMs: Math.round(t1 - t0), openMs: Math.round(t2 - t1), privateMs: Math.round(performance.now() - t2) };
    return { db, createdFrom, createdBy, phases };
  } catch (err) {
    await db.close();
    throw err;
  }
}

async function listen(socketPath: string, dataDir: string, sessionWaitMs: number | undefined): Promise<EmbeddedPgServer> {
  try {
    return await EmbeddedPgServer.listen(socketPath, { sessionWaitMs });
  } catch (err) {
    if (err instanceof SocketInUse) throw new Error(`DATA_DIR ${dataDir} is in use by another running process (npm start or an admin command)`);
    throw err;
  }
}
