import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAMES, type ServiceName } from '@vat/platform/config';
import { freshDatabase, IN_CI, requireBackends } from '../support/env';
import { freePort, http, NATS_SERVER, runAdmin, spawnMain, startPrivateNats, stopAll, stopProcess, waitFor, waitReady, type PrivateNats, type Proc, serviceUrlEnv } from '../support/processes';
import { runSupplyImportCli, supplyCsvLine, writeSupplyFile, type ImportRun } from '../support/supply-files';
import { outboxSupplyEvents } from '../support/ledger-outbox';

const backends = await requireBackends(['postgres']);
const natsBinary = existsSync(NATS_SERVER);
if (!natsBinary) {
  if (IN_CI) throw new Error(`CI=true and no nats-server at ${NATS_SERVER}`);
  console.warn(`[skip] no nats-server binary at ${NATS_SERVER} (set NATS_SERVER_BIN)`);
}

const INTERNAL_TOKEN = `e2e-import-${Math.random().toString(36).slice(2)}-token`;
const SUBJECT = 'vat.ledger.v1.supply_committed';
const EVENTS = 50_000;
/** Every 500th line is invalid (wrong VAT), so the count of distinct valid lines is known. */
const INVALID = Math.floor(EVENTS / 500);

/**
 * The bulk import against the distributed mode: the CLI reaches the ledger process over HTTP/2;
 * the ledger is killed with SIGKILL in the middle and started again. The import retries and
 * completes; nothing acknowledged is lost and nothing is stored or published twice.
 */
describe.skipIf(!backends.ok || !natsBinary)('distributed: killing the ledger during a bulk import', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vat-import-dist-'));
  let nats: PrivateNats;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: pg.Pool;
  const ports = {} as Record<ServiceName, number>;
  const procs = new Map<string, Proc>();
  let env: Record<string, string>;
  let file: string;

  const serviceEnv = (name: ServiceName) => ({ ...env, SERVICE_PORT: String(ports[name]) });

  beforeAll(async () => {
    nats = await startPrivateNats();
    db = await freshDatabase({ prefix: 'vat_e2e_import' });
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    for (const name of SERVICE_NAMES) ports[name] = await freePort([1000]);
    const gatewayPort = await freePort();
    env = {
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      INTERNAL_TOKEN,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      OUTBOX_POLL_MS: '100',
      LOG_LEVEL: 'warn',
      ...serviceUrlEnv(ports),
    };
    for (const name of SERVICE_NAMES) procs.set(name, spawnMain(name, serviceEnv(name)));
    procs.set('gateway', spawnMain('gateway', { ...env, PORT: String(gatewayPort) }));
    const [, built] = await Promise.all([
      waitReady(`http://127.0.0.1:${gatewayPort}`, [...procs.values()], 150_000),
      writeSupplyFile(join(dir, 'events.csv'), EVENTS, { prefix: 'bulk', lineFor: (n, line, e) => (n % 500 === 0 ? supplyCsvLine({ ...e, vat_amount_minor: Number(e.vat_amount_minor) + 7 }) : line) }),
      runAdmin(['keys', 'create', '--account', 'bulk-acme', '--scope', 'full'], { DATABASE_URL: db.url }),
    ]);
    file = built;
  }, 240_000);

  afterAll(async () => {
    await stopAll();
    await nats?.stop().catch(() => undefined);
    await pool?.end().catch(() => undefined);
    await db?.drop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const importEnv = () => ({ DATABASE_URL: db.url, LEDGER_URL: env.LEDGER_URL!, INTERNAL_TOKEN });
  const storedCount = async () => (await pool.query<{ n: number }>('select count(*)::int as n from ledger.supply_event')).rows[0]!.n;

  it('SIGKILL of the ledger mid-import: the import retries and completes; no loss, no duplicate, no gap; a re-run skips everything', async () => {
    const t0 = Date.now();
    const running: Promise<ImportRun> = runSupplyImportCli(['--account', 'bulk-acme', '--retry-seconds', '120', file], importEnv(), 240_000);
    const atKill = await waitFor('a fifth of the file committed', async () => {
      const n = await storedCount();
      return n >= EVENTS / 5 ? n : undefined;
    }, { timeoutMs: 120_000, intervalMs: 100 });
    expect(await stopProcess(procs.get('ledger')!, 'SIGKILL', 5000)).toBe('SIGKILL');
    const killedAt = Date.now();
    procs.set('ledger', spawnMain('ledger', serviceEnv('ledger')));
    await waitReady(`http://127.0.0.1:${ports.ledger + 1000}`, [procs.get('ledger')!], 120_000);
    const r = await running;
    console.log(`[import e2e] killed the ledger at ${atKill} stored events; ledger back after ${Date.now() - killedAt} ms; import done in ${Date.now() - t0} ms: ${JSON.stringify({ ...r.json, rejections: r.json?.rejections?.length })}`);
    expect(r.json, r.stderr).toMatchObject({ complete: true, lines_read: EVENTS, rejected: INVALID, failed: 0, error: null });
    expect(r.json.retries).toBeGreaterThan(0);
    expect(r.json.committed + r.json.skipped).toBe(EVENTS - INVALID);
    expect(r.json.rejections.every((x: { line: number; errors: { error: string }[] }) => (x.line - 1) % 500 === 0 && x.errors[0]!.error === 'vat_amount_mismatch')).toBe(true);

    // The ledger holds each valid line once, at positions 1..N without a gap, and its outbox carries each once.
    const { rows } = await pool.query<{ n: number; ids: number; min: string; max: string; seqs: number }>(
      `select count(*)::int as n, count(distinct event_id)::int as ids, min(sequence)::text as min, max(sequence)::text as max,
              count(distinct sequence)::int as seqs from ledger.supply_event`,
    );
    expect(rows[0]).toEqual({ n: EVENTS - INVALID, ids: EVENTS - INVALID, min: '1', max: String(EVENTS - INVALID), seqs: EVENTS - INVALID });
    const outbox = await outboxSupplyEvents(pool);
    expect({ events: outbox.events, ids: outbox.ids }).toEqual({ events: EVENTS - INVALID, ids: EVENTS - INVALID });

    // The restarted ledger's relay publishes every event, and JetStream holds each exactly once.
    await waitFor('the ledger outbox drained', async () => (await pool.query<{ n: number }>('select count(*)::int as n from ledger.outbox where published_at is null')).rows[0]!.n === 0, { timeoutMs: 120_000, intervalMs: 500 });
    const nc = await natsConnect({ servers: nats.url, timeout: 5000 });
    try {
      const info = await (await jetstreamManager(nc)).streams.info('VAT', { subjects_filter: SUBJECT });
      // One stream message per outbox message (a SupplyCommitted carries up to 250 events).
      expect(info.state.subjects?.[SUBJECT]).toBe(outbox.messages);
    } finally {
      await nc.close();
    }

    const again = await runSupplyImportCli(['--account', 'bulk-acme', file], importEnv(), 240_000);
    expect(again.json, again.stderr).toMatchObject({ complete: true, committed: 0, skipped: EVENTS - INVALID, rejected: INVALID, failed: 0 });
    expect(await storedCount()).toBe(EVENTS - INVALID);
    expect((await http('GET', `http://127.0.0.1:${ports.ledger + 1000}/ready`)).status).toBe(200);
  }, 400_000);
});
