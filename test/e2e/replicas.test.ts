import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type Built } from '@vat/deploy/build';
import { loadConfig, SERVICE_NAMES, type ServiceName } from '@vat/platform/config';
import { freshDatabase, IN_CI, requireBackends } from '../support/env';
import { freePort, http, NATS_SERVER, runAdmin, sleep, spawnMain, startPrivateNats, stopAll, stopProcess, waitFor, waitReady, type PrivateNats, type Proc, serviceUrlEnv } from '../support/processes';

const backends = await requireBackends(['postgres']);
const natsBinary = existsSync(NATS_SERVER);
if (!natsBinary && IN_CI) throw new Error(`CI=true and no nats-server at ${NATS_SERVER}`);

const Q = '2026-Q1';
const ACCOUNTS = ['rep-a', 'rep-b', 'rep-c'];
const EVENTS_PER_ACCOUNT = 48;
const BATCH = 4;
type Json = Record<string, any>;
/** Standard rates in force in 2026 (FR 20 %, AT 20 %, IT 22 %); every net amount is a multiple of 1,000 cents, so the VAT is exact. */
const STANDARD_BPS: Record<string, number> = { FR: 2000, AT: 2000, IT: 2200 };

const dayOf = (i: number) => `2026-0${1 + (i % 3)}-${String(1 + ((i * 7) % 27)).padStart(2, '0')}`;

/** The B2C sale of goods from DE that is event `i` of the account (to FR, AT or IT by turn). */
function goodsSale(account: string, i: number): Json {
  const net = 40_000 + i * 1_000;
  const country = ['FR', 'AT', 'IT'][i % 3]!;
  const bps = STANDARD_BPS[country]!;
  return { event_id: `${account}-${i}`, event_type: 'sale', occurred_at: dayOf(i), supply_kind: 'goods', customer_type: 'b2c', country_of_consumption: country, dispatch_country: 'DE', supplier_establishment_country: 'DE', currency: 'EUR', net_amount_minor: net, vat_amount_minor: (net * bps) / 10_000, vat_rate_bps: bps, rate_category: 'standard', classification_status: 'classified' };
}

/**
 * One account's quarter: sales of goods to three States, refunds of some, IOSS imports; a deterministic mix.
 * Events 7, 15, 31 and 39 are refunds of 1,000 cents (23 and 47 are imports): in rep-a and rep-b of the account's first sale; in rep-c of the
 * sale just before it, posted after the refund in the same batch, so the ledger holds the refund first. The
 * replicated run gets the two in one batch (the Article 59c projection links the refund at once); the one-process
 * run below posts one event at a time, so it applies the refund unresolved and links it when the sale arrives.
 */
function eventsOf(account: string): Json[] {
  const out: Json[] = [];
  for (let i = 0; i < EVENTS_PER_ACCOUNT; i++) {
    const day = dayOf(i);
    const id = `${account}-${i}`;
    if (i % 6 === 5) {
      out.push({ event_id: id, event_type: 'sale', occurred_at: day, supply_kind: 'imported_goods', customer_type: 'b2c', country_of_consumption: 'FR', currency: 'EUR', net_amount_minor: 5000 + i, vat_amount_minor: Math.round(((5000 + i) * 2000) / 10000), vat_rate_bps: 2000, rate_category: 'standard', classification_status: 'classified', third_country_origin: 'CN', intrinsic_value_eur_minor: 5000 + i, excise_goods: false, consignment_reference: `c-${id}` });
    } else if (i % 8 === 7) {
      // In rep-c, i - 1 (6, 14, 30, 38) is a goods sale; the refund goes before it.
      const original = goodsSale(account, account === 'rep-c' ? i - 1 : 0);
      const refund = { ...original, event_id: id, event_type: 'refund', original_event_id: original.event_id, occurred_at: day > original.occurred_at ? day : original.occurred_at, net_amount_minor: -1000, vat_amount_minor: (-1000 * original.vat_rate_bps) / 10_000 };
      if (account === 'rep-c') out.splice(out.length - 1, 0, refund);
      else out.push(refund);
    } else {
      out.push(goodsSale(account, i));
    }
  }
  return out;
}

const registrations = (n: number) => [
  { scheme_type: 'union_oss', member_state_identification: 'DE', vat_registration_number: `DE12345678${n}`, effective_from: '2026-01-01', status: 'active' },
  { scheme_type: 'ioss', member_state_identification: 'DE', vat_registration_number: `IM276000000${n}`, ioss_intermediary_name: 'Agent', ioss_intermediary_number: `IN276000000${n}`, effective_from: '2026-01-01', status: 'active' },
];

/** What each account's figures are compared on: timestamps and generated ids masked, the rest as answered. */
const normal = (text: string) =>
  text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');
const READS = [`/v1/reports/oss-quarterly-summary?period=${Q}`, `/v1/reports/filing-prep?period=${Q}`, '/v1/compliance/threshold-status'];

/** Where two answers part, with some context either side (a failure message readable in a log). */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: ${JSON.stringify(a.slice(Math.max(0, i - 120), i + 160))} vs ${JSON.stringify(b.slice(Math.max(0, i - 120), i + 160))}`;
}

/** Waits until the account's projections are caught up, locks the quarter, and reads every figure and artifact. */
async function figures(base: string, key: string): Promise<Record<string, string>> {
  const headers = { 'x-api-key': key };
  const lock = await waitFor('the lock', async () => {
    const r = await http('POST', `${base}/v1/reports/locked-return-periods/union-oss?period=${Q}`, { headers, timeoutMs: 30_000 });
    return r.status === 503 ? undefined : r;
  }, { timeoutMs: 120_000, intervalMs: 500 });
  expect(lock.status, lock.text).toBe(201);
  await waitFor('threshold status caught up', async () => {
    const r = await http('GET', `${base}/v1/compliance/threshold-status`, { headers, timeoutMs: 30_000 });
    return r.status === 200 && !JSON.stringify(r.json).includes('projection_lagging');
  }, { timeoutMs: 120_000, intervalMs: 500 });
  const out: Record<string, string> = {};
  for (const path of READS) {
    const r = await http('GET', `${base}${path}`, { headers, timeoutMs: 30_000 });
    expect(r.status, `${path} ${r.text}`).toBe(200);
    out[path] = normal(r.text);
  }
  const locked = await http('GET', `${base}/v1/reports/locked-return-periods/union-oss?period=${Q}`, { headers });
  // The accountant report's bytes hold the lock's time, so its SHA-256 differs between runs: the bytes
  // themselves are compared below, timestamps masked.
  // The PDF's compressed streams hold the lock's time too, so its byte size varies by a few bytes: masked here,
  // and the PDF is compared by its text (pdftotext) with timestamps masked.
  out.locked = normal(locked.text)
    .replace(/"sha256":"[0-9a-f]{64}"/g, '"sha256":"<sha256>"')
    .replace(/("format":"pdf","media_type":"application\/pdf","filename":"[^"]+","byte_size":)\d+/g, '$1"<pdf size>"');
  for (const e of locked.json.current_period.exports as { filename: string; download_path: string }[]) {
    const res = await fetch(`${base}${e.download_path}`, { headers });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = e.filename.endsWith('.pdf') ? pdfText(bytes) : bytes.toString('utf8');
    out[e.filename] = createHash('sha256').update(normal(text)).digest('hex');
  }
  return out;
}

/** A PDF's text (poppler's pdftotext), its timestamps masked like the JSON answers'. */
function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8').replace(/\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?( ?UTC|Z)?/g, '<time>');
}

/**
 * Issue 23: two replicas of every service and of the gateway on PostgreSQL and a private JetStream;
 * concurrent clients commit supply events for several accounts through both gateways; one replica of
 * every service is killed with SIGKILL in the middle (clients retry a failed batch through the other
 * gateway, with the same event ids). Every Union OSS summary, IOSS month, threshold status and locked
 * artifact then equals that of a one-process run of the same events in the same ledger order, posted one
 * event at a time (concurrent clients choose the order in which an account's batches reach the ledger; the
 * ledger's order decides the rest, never the batching, the replica or a redelivery).
 */
describe.skipIf(!backends.ok || !natsBinary)('replicas: two of every process, one of each killed mid-run', () => {
  let nats: PrivateNats;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let reference: Awaited<ReturnType<typeof freshDatabase>>;
  let built: Built | undefined;
  const sets: { services: Proc[]; gateway: Proc; base: string }[] = [];
  const keys: Record<string, string> = {};
  /** The replicated run's figures, and each account's events in the order its ledger numbered them. */
  const got: Record<string, Record<string, string>> = {};
  const ledgerOrder: Record<string, string[]> = {};

  beforeAll(async () => {
    nats = await startPrivateNats();
    db = await freshDatabase({ prefix: 'vat_rep' });
    const common = {
      DATABASE_URL: db.url, NATS_URL: nats.url, INTERNAL_TOKEN: `replicas-${randomBytes(8).toString('hex')}`,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'), OUTBOX_POLL_MS: '100', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000',
    };
    for (let s = 0; s < 2; s++) {
      const ports = {} as Record<ServiceName, number>;
      for (const name of SERVICE_NAMES) ports[name] = await freePort([1000]);
      const port = await freePort();
      const env = { ...common, ...serviceUrlEnv(ports) };
      const services = SERVICE_NAMES.map((name) => spawnMain(name, { ...env, SERVICE_PORT: String(ports[name]) }));
      sets.push({ services, gateway: spawnMain('gateway', { ...env, PORT: String(port) }), base: `http://127.0.0.1:${port}` });
    }
    for (const set of sets) await waitReady(set.base, [...set.services, set.gateway], 240_000);
    for (const [n, account] of ACCOUNTS.entries()) {
      keys[account] = (await runAdmin(['keys', 'create', '--account', account, '--scope', 'full'], { DATABASE_URL: db.url })).json.key;
      for (const body of registrations(n)) {
        const r = await http('POST', `${sets[n % 2]!.base}/v1/tax-registrations`, { headers: { 'x-api-key': keys[account]! }, body });
        expect(r.status, r.text).toBe(201);
      }
    }
  }, 300_000);

  afterAll(async () => {
    await built?.stop().catch(() => undefined);
    await stopAll();
    await nats?.stop().catch(() => undefined);
    await db?.drop().catch(() => undefined);
    await reference?.drop().catch(() => undefined);
  }, 60_000);

  it('takes every batch with two replicas of everything and one of each service killed mid-run', async () => {
    // The accounts' batches interleaved; four clients take them in turn, each through the gateways alternately.
    const queue: { account: string; events: Json[] }[] = [];
    for (let i = 0; i < EVENTS_PER_ACCOUNT; i += BATCH) for (const account of ACCOUNTS) queue.push({ account, events: eventsOf(account).slice(i, i + BATCH) });
    let next = 0;
    let committed = 0;
    const retried: string[] = [];
    let killed: Promise<void> | undefined;
    const client = async (c: number) => {
      for (let turn = c; next < queue.length; turn++) {
        const batch = queue[next++]!;
        for (let attempt = 0; ; attempt++) {
          const set = sets[(turn + attempt) % 2]!;
          const r = await http('POST', `${set.base}/v1/supply-events`, { headers: { 'x-api-key': keys[batch.account]! }, body: { events: batch.events }, timeoutMs: 30_000 }).catch((err: Error) => ({ status: 0, text: err.message, json: undefined }));
          if (r.status === 201 || r.status === 200) break;
          expect([0, 502, 503, 504], `${r.status} ${r.text}`).toContain(r.status);
          retried.push(`${batch.account} ${r.status}`);
          expect(attempt, 'a batch is committed within 20 attempts').toBeLessThan(20);
          await sleep(250);
        }
        committed++;
        if (committed === Math.floor(queue.length / 3) && !killed) {
          killed = Promise.all(sets[0]!.services.map((p) => stopProcess(p, 'SIGKILL', 1_000))).then(() => undefined);
        }
      }
    };
    await Promise.all([0, 1, 2, 3].map(client));
    await killed;
    expect(committed).toBe(queue.length);
    console.log(`[replicas e2e] ${queue.length} batches committed, ${retried.length} attempts retried after the kill`);
    // The surviving replicas finish what the killed ones held (claims and unacknowledged messages after 30 s).
    for (const account of ACCOUNTS) {
      got[account] = await figures(sets[1]!.base, keys[account]!);
      const events = await http('GET', `${sets[1]!.base}/v1/supply-events?limit=500`, { headers: { 'x-api-key': keys[account]! } });
      ledgerOrder[account] = events.json.items.map((e: { event_id: string }) => e.event_id);
      expect(ledgerOrder[account]).toHaveLength(EVENTS_PER_ACCOUNT);
    }
    await stopProcess(sets[0]!.gateway, 'SIGTERM', 10_000);
  }, 420_000);
  it('gives every figure of a one-process run of the same events in the same ledger order', async () => {
    reference = await freshDatabase({ prefix: 'vat_rep_ref' });
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', OUTBOX_POLL_MS: '50', RATE_LIMIT_PER_MINUTE: '1000000', DATABASE_URL: reference.url, DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') });
    built = await build('all', config, pino({ level: 'silent' }));
    const base = await built.listen();
    for (const [n, account] of ACCOUNTS.entries()) {
      const key = (await built.gateway!.keys.create(account, 'full', false)).key;
      for (const body of registrations(n)) expect((await http('POST', `${base}/v1/tax-registrations`, { headers: { 'x-api-key': key }, body })).status).toBe(201);
      const byId = new Map(eventsOf(account).map((e) => [e.event_id as string, e]));
      // One event per request, in ledger order: the same ledger, batched otherwise than in the replicated run.
      for (const id of ledgerOrder[account]!) {
        const r = await http('POST', `${base}/v1/supply-events`, { headers: { 'x-api-key': key }, body: { events: [byId.get(id)!] } });
        expect(r.status, r.text).toBe(201);
      }
      const expected = await figures(base, key);
      // Soft: one run shows every account's differences, not only the first.
      for (const [what, value] of Object.entries(expected)) expect.soft(got[account]![what], `${account} ${what}: ${firstDifference(got[account]![what] ?? '', value)}`).toBe(value);
    }
    await built.stop();
    built = undefined;
  }, 180_000);
});
