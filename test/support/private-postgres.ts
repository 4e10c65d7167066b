import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, GiveUp, spawnProcess, stopProcess, waitFor, type Proc } from './processes';

/** The newest installed PostgreSQL's binaries (Debian layout), or PG_BIN_DIR. */
export function postgresBinDir(): string | undefined {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'postgres'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

/**
 * PostgreSQL refuses to run as root: as root the private cluster runs as the `postgres` system user
 * (through `setpriv`, which execs, so the process id is the postmaster's).
 */
function asClusterUser(cmd: string, args: string[]): [string, string[], { uid: number; gid: number } | undefined] {
  if (process.getuid?.() !== 0) return [cmd, args, undefined];
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', cmd, ...args], { uid, gid }];
}

export type PrivatePostgres = {
  port: number;
  /** The `postgres` database of the cluster (superuser `postgres`, trust authentication on 127.0.0.1). */
  url: string;
  proc: Proc;
  /**
   * Shuts the cluster down and starts it again on the same port and data: `fast` is an administrator's
   * restart (sessions terminated, 57P01), `immediate` a crash (recovery from the WAL on start).
   */
  restart(mode: 'fast' | 'immediate', downMs?: number): Promise<void>;
  stop(): Promise<void>;
};

/**
 * A PostgreSQL cluster of the test's own (initdb in a temporary directory, a free port, sockets in that
 * directory): a test can restart or crash it without disturbing anyone else's databases on the shared server.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('no PostgreSQL binaries (set PG_BIN_DIR)');
  const dir = mkdtempSync(join(tmpdir(), 'vat-e2e-pg-'));
  const data = join(dir, 'data');
  const [initCmd, initArgs, owner] = asClusterUser(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  if (owner) chownSync(dir, owner.uid, owner.gid);
  execFileSync(initCmd, initArgs, { stdio: 'pipe' });
  const port = await freePort();
  const launch = async () => {
    const [cmd, args] = asClusterUser(join(bin, 'postgres'), [
      '-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1',
      '-c', 'max_connections=200', '-c', 'shared_buffers=32MB', '-c', 'fsync=on', '-c', 'synchronous_commit=on',
    ]);
    const proc = spawnProcess(`postgres :${port}`, cmd, args);
    await waitFor(`postgres on ${port}`, async () => {
      if (proc.exited()) throw new GiveUp(`postgres exited: ${proc.output()}`);
      const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 1000 });
      c.on('error', () => undefined);
      try {
        await c.connect();
        await c.query('select 1');
        return true;
      } catch {
        return false;
      } finally {
        await c.end().catch(() => undefined);
      }
    }, { timeoutMs: 30_000, intervalMs: 100 });
    return proc;
  };
  const cluster: PrivatePostgres = {
    port,
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    proc: await launch(),
    async restart(mode, downMs = 0) {
      // SIGINT is PostgreSQL's fast shutdown, SIGQUIT its immediate one; sent to the postmaster alone (in
      // its group the backends would take SIGINT as a query cancel).
      process.kill(cluster.proc.pid, mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
      await Promise.race([cluster.proc.exit, new Promise((r) => setTimeout(r, 30_000))]);
      if (!cluster.proc.exited()) await stopProcess(cluster.proc, 'SIGKILL', 5_000);
      if (downMs) await new Promise((r) => setTimeout(r, downMs));
      cluster.proc = await launch();
    },
    async stop() {
      await stopProcess(cluster.proc, 'SIGINT', 30_000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}
