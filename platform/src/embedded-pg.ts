import { mkdirSync, readFileSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export type EmbeddedPostgres = {
  url: string;
  stop(): Promise<void>;
};

type RuntimeFile = { pid: number; url: string };

function runtimeFile(dataDir: string): string {
  return join(resolve(dataDir), 'runtime.json');
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The wire-protocol address of a running `npm start` on this data directory, if any. */
export function runningEmbeddedUrl(dataDir: string): string | undefined {
  const file = runtimeFile(dataDir);
  if (!existsSync(file)) return undefined;
  try {
    const rt = JSON.parse(readFileSync(file, 'utf8')) as RuntimeFile;
    return processAlive(rt.pid) && rt.pid !== process.pid ? rt.url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts PGlite on `<dataDir>/pg` and serves it over the PostgreSQL wire protocol on loopback,
 * so the same MikroORM/pg code runs against it as against a real server.
 */
export async function startEmbeddedPostgres(dataDir: string, opts: { advertise?: boolean } = {}): Promise<EmbeddedPostgres> {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const db = await PGlite.create({ dataDir: join(dir, 'pg') });
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 64 });
  await server.start();
  const url = `postgresql://postgres@${server.getServerConn()}/postgres`;
  if (opts.advertise) writeFileSync(runtimeFile(dir), JSON.stringify({ pid: process.pid, url } satisfies RuntimeFile));
  return {
    url,
    async stop() {
      if (opts.advertise) rmSync(runtimeFile(dir), { force: true });
      await server.stop();
      await db.close();
    },
  };
}
