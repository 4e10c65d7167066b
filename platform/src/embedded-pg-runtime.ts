import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writePrivateJson } from './embedded-pg-files';
import { socketAnswers } from './embedded-pg-server';
import { processAlive } from './process-alive';

/** `DATA_DIR/runtime.json` while `npm start` runs: where its database's Unix socket is. */
type RuntimeFile = { pid: number; socketDir: string };
/** What an older version wrote instead: the TCP address of its database. */
type LegacyRuntimeFile = { pid: number; url: string };

/** libpq's socket file name for port 5432. */
export const SOCKET_NAME = '.s.PGSQL.5432';

const runtimeFile = (dataDir: string) => join(dataDir, 'runtime.json');

/** Connection string for the embedded database's Unix socket, understood by `pg` and MikroORM alike. */
export function embeddedUrl(socketDir: string): string {
  return `postgresql://postgres@${encodeURIComponent(socketDir)}:5432/postgres`;
}

/** sun_path holds 108 bytes on Linux and 104 on macOS, the terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = 103;

/** `DATA_DIR/run`, the socket's directory; fails when DATA_DIR is too long for a Unix socket path. */
export function socketDirFor(dataDir: string): string {
  const dir = join(dataDir, 'run');
  const bytes = Buffer.byteLength(join(dir, SOCKET_NAME));
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new Error(`DATA_DIR ${dataDir} is too long for the embedded database's Unix socket (${join(dir, SOCKET_NAME)} is ${bytes} bytes, at most ${MAX_SOCKET_PATH_BYTES}); set a shorter DATA_DIR`);
  }
  return dir;
}

/** The URL the embedded database of `dataDir` will be served at (openEmbeddedPostgres), known before it opens. */
export function embeddedUrlFor(dataDir: string): string {
  return embeddedUrl(socketDirFor(resolve(dataDir)));
}

function readRuntimeFile(dataDir: string): Partial<RuntimeFile & LegacyRuntimeFile> {
  const file = runtimeFile(dataDir);
  if (!existsSync(file)) return {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

/** Tells operator commands (the admin CLI) where the running database's socket is; 0600. */
export function advertise(dataDir: string, socketDir: string): void {
  writePrivateJson(runtimeFile(dataDir), { pid: process.pid, socketDir } satisfies RuntimeFile);
}

export function unadvertise(dataDir: string): void {
  rmSync(runtimeFile(dataDir), { force: true });
}

/** The connection string of a running `npm start` on this data directory, if one answers on its socket. */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | undefined> {
  const { socketDir } = readRuntimeFile(dataDir);
  if (typeof socketDir !== 'string') return undefined;
  return (await socketAnswers(join(socketDir, SOCKET_NAME))) ? embeddedUrl(socketDir) : undefined;
}

/** An older version's `npm start` serves DATA_DIR over TCP, without the socket lock: never open it twice. */
export function refuseOlderRunningVersion(dataDir: string): void {
  const { pid, url, socketDir } = readRuntimeFile(dataDir);
  if (socketDir !== undefined || url === undefined || typeof pid !== 'number' || pid === process.pid || !processAlive(pid)) return;
  throw new Error(`DATA_DIR ${dataDir} is in use by a running npm start of an older version (pid ${pid}); stop it first (if that process is not npm start, delete ${runtimeFile(dataDir)})`);
}
