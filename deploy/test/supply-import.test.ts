import { randomBytes } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, requireBackends } from '../../test/support/env';
import { runAdmin } from '../../test/support/processes';
import { runSupplyImportCli, SUPPLY_CSV_COLUMNS, supplyCsvLine, supplyEvent, writeSupplyFile } from '../../test/support/supply-files';
import { outboxSupplyEvents } from '../../test/support/ledger-outbox';

const backends = await requireBackends(['postgres']);

const COUNT = 3000;
/** Data line n is physical line n + 1 (header), n + 2 after the record with a quoted line break (n = 1200). */
const lineOf = (n: number) => (n > 1200 ? n + 2 : n + 1);

/** The bad lines of the file and what the import must say about each. */
const EXPECTED_REJECTIONS = [
  { n: 100, error: 'invalid_currency', field: 'currency' },
  { n: 200, error: 'invalid_net_amount_minor', field: 'net_amount_minor' },
  { n: 300, error: 'invalid_csv', field: null },
  { n: 400, error: 'invalid_csv', field: null },
  { n: 500, error: 'vat_amount_mismatch', field: 'vat_amount_minor' },
  { n: 700, error: 'supply_event_conflict', field: 'event_id' },
  // A quoted line break is read as one record (later line numbers shift by one); the service refuses control characters.
  { n: 1200, error: 'invalid_product_reference', field: 'product_reference' },
  { n: 2000, error: 'invalid_country_of_consumption', field: 'country_of_consumption' },
];

describe.skipIf(!backends.ok)('admin supply import on PostgreSQL (ledger in-process)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vat-import-'));
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let sql: pg.Client;
  let env: Record<string, string>;
  let csvFile: string;

  const stored = async (account: string) =>
    (
      await sql.query<{ n: number; distinct_ids: number; max_seq: string | null }>(
        `select count(*)::int as n, count(distinct e.event_id)::int as distinct_ids, max(e.sequence)::text as max_seq
           from ledger.supply_event e join gateway.account a on a.id = e.account_id where a.name = $1`,
        [account],
      )
    ).rows[0]!;
  /** The events the ledger outbox carries (each once: as many distinct ids as events). */
  const published = async () => {
    const o = await outboxSupplyEvents(sql);
    return { events: o.events, ids: o.ids };
  };

  beforeAll(async () => {
    db = await freshDatabase({ prefix: 'vat_import' });
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    env = { DATABASE_URL: db.url, DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    await runAdmin(['keys', 'create', '--account', 'erp-acme', '--scope', 'full'], env);
    csvFile = await writeSupplyFile(join(dir, 'events.csv'), COUNT, {
      prefix: 'acme',
      lineFor: (n, line, e) => {
        if (n === 100) return supplyCsvLine({ ...e, currency: 'XXX' });
        if (n === 200) return supplyCsvLine({ ...e, net_amount_minor: '12.5' });
        if (n === 300) return line.replace('acme-300', 'acme"300');
        if (n === 400) return line.slice(0, line.lastIndexOf(','));
        if (n === 500) return supplyCsvLine({ ...e, vat_amount_minor: 5 });
        if (n === 600) return supplyCsvLine(supplyEvent(10, 'acme'));
        if (n === 700) return supplyCsvLine({ ...supplyEvent(20, 'acme'), product_reference: 'changed' });
        if (n === 1200) return supplyCsvLine({ ...e, product_reference: 'two\r\nlines' });
        if (n === 2000) return supplyCsvLine({ ...e, country_of_consumption: 'ZZ' });
        return line;
      },
    });
  }, 120_000);

  afterAll(async () => {
    await sql?.end();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits the good lines, rejects each bad one with its line number and code, skips an exact repeat', async () => {
    const r = await runSupplyImportCli(['--account', 'erp-acme', csvFile], env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.json).toMatchObject({ complete: true, lines_read: COUNT, committed: COUNT - 9, skipped: 1, rejected: 8, failed: 0, ledger: 'in-process', error: null });
    expect(r.json.rejections.map((x: any) => ({ line: x.line, error: x.errors[0].error, field: x.errors[0].field }))).toEqual(EXPECTED_REJECTIONS.map(({ n, error, field }) => ({ line: lineOf(n), error, field })));
    expect(r.stderr).toMatch(/lines read/);
    const s = await stored('erp-acme');
    expect(s).toEqual({ n: COUNT - 9, distinct_ids: COUNT - 9, max_seq: String(COUNT - 9) });
    expect(await published()).toEqual({ events: COUNT - 9, ids: COUNT - 9 });
  }, 240_000);

  it('a second run resumes: everything committed is skipped, nothing is written twice', async () => {
    const r = await runSupplyImportCli(['--account', 'erp-acme', '--concurrency', '4', csvFile], env);
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ lines_read: COUNT, committed: 0, skipped: COUNT - 8, rejected: 8 });
    expect((await stored('erp-acme')).n).toBe(COUNT - 9);
  }, 240_000);

  it('a line changed since it was committed is rejected as supply_event_conflict; an NDJSON file works the same way', async () => {
    const changed = await writeSupplyFile(join(dir, 'changed.csv'), 60, { prefix: 'acme', lineFor: (n, line, e) => (n === 50 ? supplyCsvLine({ ...e, order_reference: 'edited' }) : line) });
    const r = await runSupplyImportCli(['--account', 'erp-acme', changed], env);
    expect(r.json).toMatchObject({ committed: 0, skipped: 59, rejected: 1, rejections: [{ line: 51, event_id: 'acme-50', errors: [{ error: 'supply_event_conflict' }] }] });
    // Line 5 names a calculation: the in-process ledger asks the calculation module (started on demand).
    const nd = await writeSupplyFile(join(dir, 'more.ndjson'), 20, { prefix: 'nd', format: 'ndjson', lineFor: (k, line, e) => (k === 5 ? JSON.stringify({ ...e, calculation_id: randomUUID() }) : line) });
    const n = await runSupplyImportCli(['--account', 'erp-acme', nd], env);
    expect(n.code, n.stderr).toBe(1);
    expect(n.json).toMatchObject({ format: 'ndjson', committed: 19, rejected: 1, rejections: [{ line: 5, errors: [{ field: 'calculation_id', error: 'calculation_not_found' }] }] });
    expect((await stored('erp-acme')).max_seq).toBe(String(COUNT - 9 + 19));
  }, 240_000);

  it('a semicolon-separated file (German spreadsheet default) is read by its header, or with --delimiter; a wrong --delimiter names the right one', async () => {
    const semi = join(dir, 'semikolon.csv');
    const lines = [1, 2, 4, 5].map((n) => SUPPLY_CSV_COLUMNS.map((c) => String(supplyEvent(n, 'semi')[c] ?? '')).join(';'));
    writeFileSync(semi, `${SUPPLY_CSV_COLUMNS.join(';')}\r\n${lines.join('\r\n')}\r\n`);
    const r = await runSupplyImportCli(['--account', 'erp-acme', semi], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ lines_read: 4, committed: 4, rejected: 0 });
    // Progress counts what the ledger answered: at the end everything is settled.
    expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(/100% done, 4 lines read, 4 committed, 0 skipped, 0 rejected, 0 pending/);
    const again = await runSupplyImportCli(['--account', 'erp-acme', '--delimiter', ';', semi], env);
    expect(again.json).toMatchObject({ committed: 0, skipped: 4 });
    const wrong = await runSupplyImportCli(['--account', 'erp-acme', '--delimiter', ',', semi], env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/Unknown CSV column\(s\) "event_id;event_type;.*give --delimiter ';'/);
  }, 240_000);

  it('a short row names its event_id; a line with a mistyped cell lists the ledger\'s other faults too', async () => {
    const file = join(dir, 'faults.csv');
    const short = supplyCsvLine(supplyEvent(1, 'fault')).split(',').slice(0, 10).join(',');
    const mistyped = supplyCsvLine({ ...supplyEvent(2, 'fault'), net_amount_minor: '12.5', currency: 'eur', occurred_at: '2026-13-01' });
    writeFileSync(file, `${SUPPLY_CSV_COLUMNS.join(',')}\n${short}\n${mistyped}\n`);
    const r = await runSupplyImportCli(['--account', 'erp-acme', file], env);
    expect(r.code).toBe(1);
    expect(r.json.rejections).toEqual([
      { line: 2, event_id: 'fault-1', errors: [expect.objectContaining({ error: 'invalid_csv' })] },
      { line: 3, event_id: 'fault-2', errors: expect.arrayContaining([
        expect.objectContaining({ field: 'net_amount_minor', error: 'invalid_net_amount_minor' }),
        expect.objectContaining({ field: 'currency', error: 'invalid_currency', detail: expect.stringMatching(/upper case/) }),
        expect.objectContaining({ field: 'occurred_at', error: 'invalid_occurred_at', detail: expect.stringMatching(/not a valid date/) }),
      ]) },
    ]);
    expect(r.json.rejections[1].errors.filter((e: any) => e.field === 'net_amount_minor')).toHaveLength(1);
  }, 240_000);

  it('an unknown account or CSV column is a clear error (exit 1) and sends nothing; bad usage exits 2', async () => {
    const unknown = await runSupplyImportCli(['--account', 'nobody', csvFile], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no account named "nobody"/);
    const badHeader = join(dir, 'bad-header.csv');
    writeFileSync(badHeader, 'event_id,colour\nx,red\n');
    const header = await runSupplyImportCli(['--account', 'erp-acme', badHeader], env);
    expect(header.code).toBe(1);
    expect(header.stderr).toMatch(/Unknown CSV column\(s\) "colour"/);
    const usage = await runSupplyImportCli(['--account', 'erp-acme', join(dir, 'events.txt')], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/\.csv, \.ndjson/);
  }, 240_000);
});
