import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import type { ReferenceProjection } from '@vat/platform/reference-projection';
import type { ServiceDeps } from '@vat/platform/service-module';
import { importEcbFile } from '../src/reference/ecb-import';
import { FxStore } from '../src/reference/fx-store';
import { requireBackends } from '../../../test/support/env';
import { startHarness, type Harness } from '../../../test/support/harness';
import { runAdmin } from '../../../test/support/processes';

const backends = await requireBackends(['postgres']);

const DAILY = (date: string, usd: string) => `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
  <Cube><Cube time="${date}"><Cube currency="USD" rate="${usd}"/><Cube currency="JPY" rate="171.23"/></Cube></Cube>
</gesmes:Envelope>`;

describe.skipIf(!backends.ok)('operator imports a newer ECB file', () => {
  let h: Harness;
  let pool: pg.Pool;
  beforeAll(async () => {
    h = await startHarness();
    pool = h.built.services.find((s) => s.module.name === 'calculation')!.deps.pool;
  });
  afterAll(async () => h?.close());

  it('the shipped history is loaded and ends 2026-04-13', async () => {
    const fx = new FxStore(pool, 0);
    const table = await fx.current();
    expect(table.lastPublicationDate()).toBe('2026-04-13');
    const csv = readFileSync(new URL('../../../seeds/ecb/eurofxref-hist.csv', import.meta.url), 'utf8');
    const header = csv.split('\n')[0]!.split(',');
    const row = csv.split('\n').find((l) => l.startsWith('2026-04-13'))!.split(',');
    expect(table.rateOn('USD', '2026-04-13')?.decimal).toBe(String(Number(row[header.indexOf('USD')])));
  });

  it('new days are served after import; re-importing changes nothing', async () => {
    const fx = new FxStore(pool, 0);
    expect((await fx.current()).rateOn('USD', '2026-04-14')).toBeUndefined();
    const first = await importEcbFile(pool, 'eurofxref-daily.xml', DAILY('2026-04-14', '1.1734'));
    expect(first.inserted).toBe(2);
    const again = await importEcbFile(pool, 'eurofxref-daily.xml', DAILY('2026-04-14', '1.1734'));
    expect(again.inserted + again.updated).toBe(0);
    const table = await fx.current();
    expect(table.rateOn('USD', '2026-04-14')?.decimal).toBe('1.1734');
    expect(table.lastPublicationDate()).toBe('2026-04-14');
    // Through the projection the other services read (compliance-reports'): the import's days travel as
    // ExchangeRatesPublished from calculation's outbox, after which the Art. 366(2) rule finds the new day
    // (never a substitute rate before that).
    const reference = (h.built.services.find((s) => s.module.name === 'compliance-reports')!.deps as ServiceDeps & { reference: ReferenceProjection }).reference;
    const deadline = Date.now() + 15_000;
    let answer;
    do {
      const [hit] = await reference.ratesOnOrNextPublication([{ currency: 'USD', date: '2026-04-14' }]);
      answer = hit ? { found: true, rate: hit.rate.decimal, rateDate: hit.rateDate } : { found: false };
      if (!answer.found) await new Promise((r) => setTimeout(r, 250));
    } while (!answer.found && Date.now() < deadline);
    expect(answer).toMatchObject({ found: true, rate: '1.1734', rateDate: '2026-04-14' });
  });

  it('a file with garbage is refused and nothing is written', async () => {
    await expect(importEcbFile(pool, 'eurofxref-daily.xml', DAILY('2026-04-15', 'abc'))).rejects.toThrow();
    const table = await new FxStore(pool, 0).current();
    expect(table.rateOn('JPY', '2026-04-15')).toBeUndefined();
  });

  it('the admin CLI imports a file idempotently with progress on stderr, and records a rate review', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vat-ecb-cli-'));
    try {
      const file = join(dir, 'eurofxref-daily.xml');
      writeFileSync(file, DAILY('2026-04-16', '1.1755'));
      const env = { DATABASE_URL: h.databaseUrl };
      const first = await runAdmin(['ecb', 'import', file], env);
      expect(first.json).toMatchObject({ total: 2, inserted: 2, updated: 0, unchanged: 0, firstDate: '2026-04-16', currencies: ['JPY', 'USD'] });
      expect(first.stderr).toContain('imported 2/2 rates');
      const again = await runAdmin(['ecb', 'import', file], env);
      expect(again.json).toMatchObject({ total: 2, inserted: 0, updated: 0, unchanged: 2 });
      expect((await new FxStore(pool, 0).current()).rateOn('USD', '2026-04-16')?.decimal).toBe('1.1755');
      const approved = await runAdmin(['rates', 'approve', '--reviewer', 'Ada Reviewer'], env);
      expect(approved.json).toMatchObject({ kind: 'vat_rates', approved_by: 'Ada Reviewer' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
