import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, http, runAdmin, sleep, spawnMain, stopAll, stopProcess, waitFor, waitReady, type Proc } from '../support/processes';

const Q = '2026-Q1';
const LOCKED = '/v1/reports/locked-return-periods/union-oss';
const sale = (id: string, country: string, net: number, day: string) => ({
  event_id: id, event_type: 'sale', occurred_at: day, supply_kind: 'goods', customer_type: 'b2c', country_of_consumption: country,
  dispatch_country: 'DE', supplier_establishment_country: 'DE', currency: 'EUR', net_amount_minor: net, vat_amount_minor: net / 5,
  vat_rate_bps: 2000, rate_category: 'standard', classification_status: 'classified',
});

/**
 * Issue 23: `admin backup` takes a consistent copy of npm start's DATA_DIR while it serves writes, and
 * `admin restore` into an empty DATA_DIR gives a service whose reports, locked artifacts (byte for
 * byte), API key checks and encrypted VAT numbers are those of the original. The data-encryption key is
 * in the file only with --include-key; otherwise the restore must be given the right key.
 */
describe('admin backup and restore of npm start\'s DATA_DIR', () => {
  const root = mkdtempSync(join(tmpdir(), 'vat-e2e-backup-'));
  const original = join(root, 'a');
  const restored = join(root, 'b');
  const withKey = join(root, 'c');
  const backup = join(root, 'backup.vat');
  const backupWithKey = join(root, 'backup-with-key.vat');
  let port: number;
  let base: string;
  let server: Proc | undefined;
  let key: string;
  let revokedKey: string;
  /** What the original answered, by path, before the backup. */
  const answers = new Map<string, string>();
  /** Calculations acknowledged before the backup started: the copy has them all. */
  const before: string[] = [];
  /** Every calculation the original acknowledged: the copy has no other. */
  const acknowledged: string[] = [];
  /** Every answer to a calculation. */
  const statuses: number[] = [];

  const admin = (dataDir: string, args: string[], env: Record<string, string> = {}) => runAdmin(args, { DATA_DIR: dataDir, ...env }, 120_000);
  const get = (path: string, apiKey = key) => http('GET', `${base}${path}`, { headers: { 'x-api-key': apiKey }, timeoutMs: 30_000 });
  const start = async (dataDir: string) => {
    server = spawnMain('all', { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' });
    await waitReady(base, [server], 90_000);
  };
  const stop = async () => {
    if (server) expect(await stopProcess(server, 'SIGTERM', 30_000)).toBe(0);
    server = undefined;
  };
  const calculate = async (n: number) => {
    const r = await http('POST', `${base}/v1/vat/calculate`, { headers: { 'x-api-key': key }, body: { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 1000 + n, price_includes_vat: true, transaction_date: '2026-02-01' }, timeoutMs: 30_000 });
    statuses.push(r.status);
    return r.status === 200 ? (r.json.calculation_id as string) : undefined;
  };
  /** The answers compared across the restore: reports, the locked period with its artifacts, registrations. */
  const PATHS = [
    `/v1/reports/oss-quarterly-summary?period=${Q}`,
    `/v1/reports/country-vat-breakdown?period=${Q}`,
    `/v1/reports/oss-accountant-report?period=${Q}`,
    `${LOCKED}?period=${Q}`,
    '/v1/tax-registrations',
    '/v1/supply-events?limit=500',
    '/v1/compliance/threshold-status',
  ];
  async function observe(): Promise<Map<string, string>> {
    const seen = new Map<string, string>();
    for (const path of PATHS) {
      const r = await get(path);
      expect(r.status, `${path} ${r.text}`).toBe(200);
      // A report says when it was generated (now); everything else must be equal.
      seen.set(path, r.text.replace(/"generated_at":"[^"]*"/g, '"generated_at":"…"'));
    }
    const locked = JSON.parse(seen.get(`${LOCKED}?period=${Q}`)!) as { current_period: { exports: { download_path: string }[] } };
    for (const e of locked.current_period.exports) {
      const r = await fetch(`${base}${e.download_path}`, { headers: { 'x-api-key': key } });
      expect(r.status).toBe(200);
      seen.set(e.download_path, Buffer.from(await r.arrayBuffer()).toString('base64'));
    }
    return seen;
  }

  beforeAll(async () => {
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await stopAll();
    rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it('fills a DATA_DIR through npm start: keys, a registration, a quarter of sales, a locked period', async () => {
    await start(original);
    key = (await admin(original, ['keys', 'create', '--account', 'backup-acct', '--scope', 'full'])).json.key;
    const revoked = (await admin(original, ['keys', 'create', '--account', 'backup-acct', '--scope', 'full'])).json;
    revokedKey = revoked.key;
    await admin(original, ['keys', 'revoke', '--id', revoked.id]);
    const reg = await http('POST', `${base}/v1/tax-registrations`, { headers: { 'x-api-key': key }, body: { scheme_type: 'union_oss', member_state_identification: 'DE', vat_registration_number: 'DE123456789', effective_from: '2026-01-01', status: 'active' } });
    expect(reg.status, reg.text).toBe(201);
    const events = await http('POST', `${base}/v1/supply-events`, { headers: { 'x-api-key': key }, body: { events: [sale('s-1', 'FR', 10000, '2026-02-10'), sale('s-2', 'AT', 5000, '2026-02-11'), sale('s-3', 'BG', 2500, '2026-03-01')] } });
    expect(events.status, events.text).toBe(201);
    const lock = await waitFor('the lock', async () => {
      const r = await http('POST', `${base}${LOCKED}?period=${Q}`, { headers: { 'x-api-key': key } });
      if (r.status === 503) return undefined;
      return r;
    }, { timeoutMs: 30_000, intervalMs: 300 });
    expect(lock.status, lock.text).toBe(201);
    for (let i = 0; i < 5; i++) before.push((await calculate(i))!);
    acknowledged.push(...before);
    for (const [path, text] of await observe()) answers.set(path, text);
  }, 180_000);

  it('backs up while npm start keeps taking writes, with and without the key', async () => {
    let writing = true;
    const writer = (async () => {
      for (let i = 100; writing; i++) {
        const id = await calculate(i);
        if (id) acknowledged.push(id);
      }
    })();
    await sleep(300);
    const made = (await admin(original, ['backup', backup])).json;
    expect(made).toMatchObject({ file: backup, key_included: false });
    expect(made.files).toBeGreaterThan(100);
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    const keyText = readFileSync(join(original, 'data-encryption.key'), 'utf8').trim();
    expect(gunzipSync(readFileSync(backup)).includes(keyText)).toBe(false);
    expect((await admin(original, ['backup', backupWithKey, '--include-key'])).json.key_included).toBe(true);
    expect(gunzipSync(readFileSync(backupWithKey)).includes(keyText)).toBe(true);
    await sleep(300);
    writing = false;
    await writer;
    // The server kept serving: writes before, during and after the backups were acknowledged.
    expect(acknowledged.length).toBeGreaterThan(before.length);
    // Writes waited for the backup's hold on the database; none failed.
    expect(statuses.filter((st) => st !== 200)).toEqual([]);
    expect((await http('GET', `${base}/ready`)).status).toBe(200);
    // A second backup to the same name is refused, the file is not touched.
    await expect(admin(original, ['backup', backup])).rejects.toThrow(/exists; give a new file name/);
    await stop();
  }, 180_000);

  it('refuses a restore it cannot do right, leaving DATA_DIR empty', async () => {
    mkdirSync(restored);
    writeFileSync(join(restored, 'something'), 'x');
    await expect(admin(restored, ['restore', backup, '--key-file', join(original, 'data-encryption.key')])).rejects.toThrow(/is not empty/);
    rmSync(join(restored, 'something'));
    await expect(admin(restored, ['restore', backup])).rejects.toThrow(/holds no data-encryption key/);
    const wrongKey = join(root, 'wrong.key');
    writeFileSync(wrongKey, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    await expect(admin(restored, ['restore', backup, '--key-file', wrongKey])).rejects.toThrow(/is not the key of the backed-up data/);
    const damaged = join(root, 'damaged.vat');
    writeFileSync(damaged, readFileSync(backup));
    truncateSync(damaged, Math.floor(statSync(damaged).size * 0.8));
    await expect(admin(restored, ['restore', damaged, '--key-file', join(original, 'data-encryption.key')])).rejects.toThrow(/truncated or damaged|damaged/);
    expect(readdirSync(restored)).toEqual([]);
  }, 180_000);

  it('restores into an empty DATA_DIR a service with the same reports, artifacts, key checks and VAT numbers', async () => {
    const done = (await admin(restored, ['restore', backup, '--key-file', join(original, 'data-encryption.key')])).json;
    expect(done).toMatchObject({ key_from: 'key-file', accounts: 1 });
    expect(readFileSync(join(restored, 'data-encryption.key'), 'utf8')).toBe(readFileSync(join(original, 'data-encryption.key'), 'utf8'));
    expect(statSync(join(restored, 'data-encryption.key')).mode & 0o777).toBe(0o600);
    await start(restored);
    const seen = await observe();
    for (const [path, text] of answers) expect(seen.get(path), path).toBe(text);
    // Key checks: the key works, the revoked one stays revoked.
    expect((await get('/v1/transactions?limit=1')).status).toBe(200);
    const refused = await get('/v1/transactions?limit=1', revokedKey);
    expect([refused.status, refused.json.error]).toEqual([401, 'invalid_api_key']);
    // A consistent copy: every calculation acknowledged before the backup, none that was never acknowledged.
    const ids: string[] = [];
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const page = await get(`/v1/transactions?limit=500${cursor ? `&cursor=${cursor}` : ''}`);
      ids.push(...page.json.items.map((t: { id: string }) => t.id));
      cursor = page.json.next_cursor ?? undefined;
    }
    expect(ids.filter((id) => !acknowledged.includes(id))).toEqual([]);
    expect(before.filter((id) => !ids.includes(id))).toEqual([]);
    // The restored service takes writes.
    expect(await calculate(999)).toBeTruthy();
    await stop();
  }, 240_000);

  it('restores a backup made with --include-key without being given the key', async () => {
    const done = (await admin(withKey, ['restore', backupWithKey])).json;
    expect(done).toMatchObject({ key_from: 'backup', accounts: 1 });
    expect(readFileSync(join(withKey, 'data-encryption.key'), 'utf8')).toBe(readFileSync(join(original, 'data-encryption.key'), 'utf8'));
  }, 120_000);
});
