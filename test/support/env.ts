import { connect as netConnect } from 'node:net';
import pg from 'pg';
import { ensureTemplate } from './template';

export const PG_SERVER_URL = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const NATS_TEST_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
export const REDIS_TEST_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const IN_CI = process.env.CI === 'true';

async function tcpOpen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = netConnect({ host, port, timeout: 1000 }, () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
    s.on('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

async function pgAvailable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_SERVER_URL, connectionTimeoutMillis: 1500 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * Whether the real backing services a suite needs are up. In CI (CI=true) a missing one fails the
 * run; on a laptop the suite is skipped with a message saying why.
 */
export async function requireBackends(what: ('postgres' | 'nats' | 'redis')[]): Promise<{ ok: boolean; reason: string }> {
  const missing: string[] = [];
  if (what.includes('postgres') && !(await pgAvailable())) missing.push(`PostgreSQL at ${PG_SERVER_URL}`);
  const u = (s: string) => new URL(s.replace(/^nats:/, 'http:').replace(/^redis:/, 'http:'));
  if (what.includes('nats') && !(await tcpOpen(u(NATS_TEST_URL).hostname, Number(u(NATS_TEST_URL).port)))) missing.push(`NATS at ${NATS_TEST_URL}`);
  if (what.includes('redis') && !(await tcpOpen(u(REDIS_TEST_URL).hostname, Number(u(REDIS_TEST_URL).port)))) missing.push(`Redis at ${REDIS_TEST_URL}`);
  if (missing.length === 0) return { ok: true, reason: '' };
  const reason = `not reachable: ${missing.join(', ')}`;
  if (IN_CI) throw new Error(`CI=true and ${reason}`);
  console.warn(`[skip] ${reason}; start them to run this suite`);
  return { ok: false, reason };
}

/** A brand-new database (cloned from the migrated, seeded template unless `empty`); drop() removes it. */
export async function freshDatabase(opts: { prefix?: string; empty?: boolean } = {}): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${opts.prefix ?? 'vat_t'}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const template = opts.empty ? undefined : await ensureTemplate(PG_SERVER_URL);
  const admin = new pg.Client({ connectionString: PG_SERVER_URL });
  await admin.connect();
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(PG_SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const a = new pg.Client({ connectionString: PG_SERVER_URL });
      await a.connect();
      // A pool's end() resolves before its sockets have closed: give the sessions a moment to leave, so a
      // forced drop does not send FATAL 57P01 to a client that no longer listens (an uncaught error in the run).
      for (let i = 0; i < 40; i++) {
        const left = await a.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (left.rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await a.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await a.end();
    },
  };
}
