import { Code, ConnectError } from '@connectrpc/connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalculationService, ExchangeRateService, SourceService, TaxClassService } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { metadataOf, reasonOf } from '@vat/platform/rpc-errors';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import type { CalculationDeps } from '../src/context';

const backends = await requireBackends(['postgres']);

/** The spec code (ErrorInfo reason) and Connect code of a failed call. */
async function failure(p: Promise<unknown>): Promise<{ code: Code; reason: string | undefined }> {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, reason: reasonOf(e) };
  }
  throw new Error('expected the call to fail');
}

const CALC = { country: 'DE', currency: 'EUR', taxClassId: 'standard', amountMinor: 11900n, priceIncludesVat: true, transactionDate: '2026-03-01' };

describe.skipIf(!backends.ok)('calculation service through createRouterTransport (PostgreSQL)', () => {
  let h: ServiceHarness<CalculationDeps>;
  const acme = { accountId: 101n, apiKeyId: 11n };
  const other = { accountId: 202n, apiKeyId: 22n };
  beforeAll(async () => {
    h = await startServiceHarness<CalculationDeps>('calculation');
  });
  afterAll(async () => h?.close());

  const calc = () => h.client(CalculationService);

  describe('ListRatesInForce', () => {
    it('merges the class windows per rate and kind, adds the regional windows, refuses a non-Member State', async () => {
      const tc = h.client(TaxClassService);
      const r = await tc.listRatesInForce({ countries: ['FR', 'PT'] }, h.as(acme));
      const fr = r.rates.filter((x) => x.country === 'FR' && x.region === undefined);
      expect(fr.filter((x) => x.rateBps === 2000 && x.rateType === 'standard').map((x) => [x.validFrom, x.validTo])).toEqual([['2019-01-01', undefined]]);
      expect(new Set(fr.map((x) => x.rateBps))).toEqual(new Set([2000, 1000, 550, 210, 0]));
      const madeira = r.rates.filter((x) => x.region === 'PT-30').map((x) => [x.rateBps, x.rateType, x.validFrom, x.validTo]);
      expect(madeira).toContainEqual([500, 'reduced', '2019-01-01', '2024-10-01']);
      expect(madeira).toContainEqual([400, 'reduced', '2024-10-01', undefined]);
      expect(r.rates.some((x) => x.country === 'DE')).toBe(false);
      expect((await tc.listRatesInForce({}, h.as(acme))).rates.some((x) => x.country === 'SE')).toBe(true);
      expect(await failure(tc.listRatesInForce({ countries: ['CH'] }, h.as(acme)))).toEqual({ code: Code.InvalidArgument, reason: 'invalid_country' });
    });
  });

  describe('Calculate', () => {
    it('stores a V2 calculation: gross 11900 incl. 19 % → vat half_up(11900·1900/11900) = 1900, net 10000', async () => {
      const r = await calc().calculate({ ...CALC, idempotencyKey: 'svc-1' }, h.as(acme));
      expect(r.replayed).toBe(false);
      expect(r.result!.vatRateBps).toBe(1900);
      expect([r.result!.netAmountMinor, r.result!.vatAmountMinor, r.result!.grossAmountMinor]).toEqual([10000n, 1900n, 11900n]);
      const stored = await h.deps.calculations.owned(acme.accountId, r.result!.calculationId);
      expect(stored?.idempotencyKey).toBe('svc-1');
      expect(stored?.amountMinor).toBe(11900n);
    });

    it('excluding VAT: net 999 at 19 % → vat half_up(999·1900/10000) = half_up(189.81) = 190, gross 1189', async () => {
      const r = await calc().calculate({ ...CALC, amountMinor: 999n, priceIncludesVat: false }, h.as(acme));
      expect([r.result!.netAmountMinor, r.result!.vatAmountMinor, r.result!.grossAmountMinor]).toEqual([999n, 190n, 1189n]);
    });

    it('the same key and request replays the stored original; a different request is idempotency_conflict', async () => {
      const first = await calc().calculate({ ...CALC, idempotencyKey: 'svc-2' }, h.as(acme));
      const again = await calc().calculate({ ...CALC, idempotencyKey: 'svc-2' }, h.as(acme));
      expect(again.replayed).toBe(true);
      expect(again.result!.calculationId).toBe(first.result!.calculationId);
      expect(await failure(calc().calculate({ ...CALC, amountMinor: 1n, idempotencyKey: 'svc-2' }, h.as(acme)))).toEqual({ code: Code.Aborted, reason: 'idempotency_conflict' });
      // keys are per account: another account's use of the same key is its own calculation
      const theirs = await calc().calculate({ ...CALC, idempotencyKey: 'svc-2' }, h.as(other));
      expect(theirs.replayed).toBe(false);
      expect(theirs.result!.calculationId).not.toBe(first.result!.calculationId);
    });

    it('legacy keys get an unowned, unstored answer and cannot use idempotency keys', async () => {
      const legacy = h.as({ ...acme, keyKind: 'legacy' });
      const r = await calc().calculate(CALC, legacy);
      expect(r.result!.calculationId).toBe('');
      expect(r.result!.calculationProvenance!.ownership).toBe('unowned_compatibility');
      expect(await failure(calc().calculate({ ...CALC, idempotencyKey: 'x' }, legacy))).toEqual({ code: Code.InvalidArgument, reason: 'idempotency_requires_v2_key' });
    });

    it.each([
      [{ country: 'XX' }, 'invalid_country'],
      [{ currency: 'ZZZ' }, 'invalid_currency'],
      [{ currency: 'HRK', transactionDate: '2024-01-01' }, 'invalid_currency'],
      [{ taxClassId: 'no_such_class' }, 'unknown_tax_class'],
      [{ amountMinor: -1n }, 'invalid_amount'],
      [{ amountMinor: 10n ** 15n + 1n }, 'invalid_amount'],
      [{ transactionDate: '2026-02-30' }, 'invalid_transaction_date'],
      [{ sourceId: 'has space' }, 'invalid_source_id'],
      [{ idempotencyKey: 'k', transactionDate: undefined }, 'transaction_date_required_for_idempotency'],
      [{ idempotencyKey: '' }, 'invalid_idempotency_key'],
    ] as const)('%o is refused with %s and stores nothing', async (change, reason) => {
      const before = (await h.deps.pool.query('select count(*)::int as n from "calculation".calculation')).rows[0].n;
      expect(await failure(calc().calculate({ ...CALC, ...change }, h.as(acme)))).toEqual({ code: Code.InvalidArgument, reason });
      expect((await h.deps.pool.query('select count(*)::int as n from "calculation".calculation')).rows[0].n).toBe(before);
    });

    it('control characters in any string field are refused by the input guard before the handler', async () => {
      expect(await failure(calc().calculate({ ...CALC, taxClassId: 'standard\u0000' }, h.as(acme)))).toEqual({ code: Code.InvalidArgument, reason: 'invalid_tax_class_id' });
      expect(await failure(calc().calculate({ ...CALC, sourceId: 'a\r\nb' }, h.as(acme)))).toEqual({ code: Code.InvalidArgument, reason: 'invalid_source_id' });
    });

    it('a tenant RPC without a principal is Unauthenticated; a malformed principal too', async () => {
      expect((await failure(calc().calculate(CALC))).code).toBe(Code.Unauthenticated);
      expect((await failure(calc().calculate(CALC, { headers: { 'x-vat-account-id': 'abc', 'x-vat-api-key-id': '1', 'x-vat-key-kind': 'v2' } }))).code).toBe(Code.Unauthenticated);
    });

    it('a conditional rate answers conditional_rate with guidance to v2', async () => {
      const snap = await h.deps.rates.current();
      const euro = ['AT', 'BE', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI', 'SK', 'CY', 'HR'];
      const w = snap.windows.find((x) => x.conditional && euro.includes(x.country) && x.validFrom <= '2026-03-01' && (x.validTo === null || x.validTo > '2026-03-01'));
      expect(w, 'the rate data has a conditional euro-area window in force on 2026-03-01').toBeDefined();
      const e = ConnectError.from(await calc().calculate({ ...CALC, country: w!.country, taxClassId: w!.taxClassId }, h.as(acme)).catch((err) => err));
      expect([e.code, reasonOf(e)]).toEqual([Code.FailedPrecondition, 'conditional_rate']);
      expect(metadataOf(e).guidance).toBe('/v2/vat/calculate');
    });
  });

  describe('history', () => {
    it('lists newest first with a cursor, hides other accounts, and refuses a foreign cursor', async () => {
      const acct = { accountId: 303n, apiKeyId: 33n };
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await calc().calculate({ ...CALC, amountMinor: BigInt(100 + i) }, h.as(acct))).result!.calculationId);
      const p1 = await calc().listTransactions({ limit: 3 }, h.as(acct));
      expect(p1.items.map((i) => i.id)).toEqual(ids.slice(2).reverse());
      const p2 = await calc().listTransactions({ limit: 3, cursor: p1.nextCursor }, h.as(acct));
      expect(p2.items.map((i) => i.id)).toEqual(ids.slice(0, 2).reverse());
      expect(p2.nextCursor).toBeUndefined();
      expect(await failure(calc().listTransactions({ cursor: p1.nextCursor }, h.as(other)))).toEqual({ code: Code.InvalidArgument, reason: 'invalid_cursor' });
      expect(await failure(calc().getTransaction({ id: ids[0]! }, h.as(other)))).toEqual({ code: Code.NotFound, reason: 'transaction_not_found' });
      expect((await calc().getTransaction({ id: ids[0]! }, h.as(acct))).transaction!.summary!.id).toBe(ids[0]);
      expect((await calc().replayTransaction({ id: ids[0]! }, h.as(acct))).exactMatch).toBe(true);
      expect(await failure(calc().replayTransaction({ id: ids[0]! }, h.as(other)))).toEqual({ code: Code.NotFound, reason: 'calculation_not_found' });
    });

    it.each([
      [{ limit: 0 }, 'invalid_limit'],
      [{ limit: 501 }, 'invalid_limit'],
      [{ filter: { currency: 'ZZZ' } }, 'invalid_currency'],
      // Known to ISO 4217 but without a minor unit: no calculation can be in it, so the filter could never match.
      [{ filter: { currency: 'XXX' } }, 'invalid_currency'],
      [{ filter: { currency: 'XAU' } }, 'invalid_currency'],
      [{ filter: { currency: 'XDR' } }, 'invalid_currency'],
      [{ filter: { taxClassId: 'nope' } }, 'invalid_tax_class_id'],
      [{ filter: { from: '2024-02-30' } }, 'invalid_date'],
      [{ filter: { from: '2024-03-01', to: '2024-02-01' } }, 'invalid_date_range'],
      [{ cursor: 'not-a-cursor' }, 'invalid_cursor'],
    ] as const)('ListTransactions %o → %s', async (req, reason) => {
      expect(await failure(calc().listTransactions(req, h.as(acme)))).toEqual({ code: Code.InvalidArgument, reason });
    });

    it.each(['DEM', 'HRK', 'JPY', 'KWD'])('takes the filter currency %s (historical codes too: old transaction dates)', async (currency) => {
      expect((await calc().listTransactions({ filter: { currency } }, h.as(acme))).items).toBeDefined();
    });

    it('exports in storage order in keyset batches and checks the request before the first chunk', async () => {
      const acct = { accountId: 404n, apiKeyId: 44n };
      for (let i = 0; i < 3; i++) await calc().calculate({ ...CALC, amountMinor: BigInt(1000 + i), transactionDate: `2025-01-0${i + 1}` }, h.as(acct));
      let csv = '';
      for await (const c of calc().exportTransactions({ filter: { from: '2025-01-01', to: '2025-12-31' } }, h.as(acct))) csv += c.csvChunk;
      const lines = csv.trimEnd().split('\r\n');
      expect(lines).toHaveLength(4);
      // 1000 gross incl. 19 %: vat half_up(1000·1900/11900) = half_up(159.66) = 160, net 840 → "8.40", "1.60", "10.00"
      expect(lines[1]).toContain(',DE,EUR,standard,true,1900,8.40,1.60,10.00,');
      const consume = async (req: object) => {
        for await (const _ of calc().exportTransactions(req, h.as(acct)));
      };
      expect(await failure(consume({ filter: { from: '2025-01-01' } }))).toEqual({ code: Code.InvalidArgument, reason: 'invalid_date_range' });
      expect(await failure(consume({ filter: { from: '2024-01-01', to: '2025-12-31' } }))).toEqual({ code: Code.InvalidArgument, reason: 'invalid_date_range' });
      expect(await failure(consume({ filter: { from: '2025-01-01', to: '2025-12-31' }, exportVersion: 3 }))).toEqual({ code: Code.InvalidArgument, reason: 'invalid_export_version' });
    });

    it('export rows come in numeric storage order across keyset batch boundaries, each once (seq 9 < 10)', async () => {
      const acct = { accountId: 505n, apiKeyId: 55n };
      for (let i = 0; i < 25; i++) await calc().calculate({ ...CALC, amountMinor: BigInt(i + 1), transactionDate: '2025-02-01' }, h.as(acct));
      const seqs: bigint[] = [];
      for await (const batch of h.deps.calculations.exportRows(acct.accountId, { from: '2025-01-01', to: '2025-12-31' }, 3)) seqs.push(...batch.map((r) => BigInt(r.seq)));
      expect(seqs).toHaveLength(25);
      expect(seqs.every((s, i) => i === 0 || s > seqs[i - 1]!)).toBe(true);
    });

    it('aggregates in EUR and refuses an unknown group_by', async () => {
      const r = await calc().aggregateTransactions({ filter: { from: '2025-01-01', to: '2025-12-31' } }, h.as({ accountId: 404n, apiKeyId: 44n }));
      expect(r.groupBy).toBe('country');
      // 1000 + 1001 + 1002 gross
      expect(r.rows).toMatchObject([{ key: 'DE', transactionCount: 3n, grossAmountMinor: 3003n }]);
      expect(await failure(calc().aggregateTransactions({ groupBy: '' }, h.as(acme)))).toEqual({ code: Code.InvalidArgument, reason: 'invalid_group_by' });
    });
  });

  describe('sources', () => {
    const src = () => h.client(SourceService);
    it('creates, updates and lists profiles per account; malformed or foreign ids are not found', async () => {
      const created = (await src().createSource({ sourceKey: 'shop/eu', displayName: 'EU shop', channelType: 'owned_store', defaultCountry: 'DE' }, h.as(acme))).source!;
      expect(await failure(src().createSource({ sourceKey: 'shop/eu', displayName: 'x', channelType: 'owned_store' }, h.as(acme)))).toEqual({ code: Code.AlreadyExists, reason: 'source_key_exists' });
      const updated = (await src().updateSource({ id: created.id.toString(), defaultCountry: '', displayName: 'Renamed' }, h.as(acme))).source!;
      expect(updated.defaultCountry).toBeUndefined();
      expect(updated.displayName).toBe('Renamed');
      for (const id of ['abc', '0', '-1', '99999999999999999999', created.id.toString()]) {
        const as = id === created.id.toString() ? h.as(other) : h.as(acme);
        expect(await failure(src().updateSource({ id, displayName: 'x' }, as))).toEqual({ code: Code.NotFound, reason: 'source_not_found' });
      }
      expect(await failure(src().updateSource({ id: created.id.toString(), sourceKey: 'new' }, h.as(acme)))).toEqual({ code: Code.InvalidArgument, reason: 'source_key_immutable' });
      expect((await src().listSources({}, h.as(other))).items).toEqual([]);
      expect(await failure(src().listUnknownSources({ limit: 0 }, h.as(acme)))).toEqual({ code: Code.InvalidArgument, reason: 'invalid_limit' });
    });
  });

  describe('public reference data', () => {
    it('tax classes and rates need no principal', async () => {
      const classes = await h.client(TaxClassService).listTaxClasses({ country: 'DE', at: '2026-03-01' });
      expect(classes.items).toHaveLength(37);
      expect(classes.items.find((c) => c.id === 'standard')!.previewRateBps).toBe(1900);
      expect(await failure(h.client(TaxClassService).listRates({ country: 'DE', history: true }))).toEqual({ code: Code.InvalidArgument, reason: 'history_requires_tax_class' });
    });

    it("rate histories: several countries' history of one class in one answer, as ListRates gives each", async () => {
      const taxClasses = h.client(TaxClassService);
      const countries = ['FR', 'DE', 'GR'];
      const all = await taxClasses.listRateHistories({ countries, taxClassId: 'standard' });
      const each = await Promise.all(countries.map((country) => taxClasses.listRates({ country, taxClassId: 'standard', history: true })));
      expect(all.rates).toEqual(each.flatMap((r) => r.rates));
      expect(all.rates.length).toBeGreaterThan(3);
      expect(all.dataReleaseDigest).toBe(each[0]!.dataReleaseDigest);
      expect(await failure(taxClasses.listRateHistories({ countries: [], taxClassId: 'standard' }))).toEqual({ code: Code.InvalidArgument, reason: 'invalid_country' });
      expect(await failure(taxClasses.listRateHistories({ countries: ['DE', 'XX'], taxClassId: 'standard' }))).toEqual({ code: Code.InvalidArgument, reason: 'invalid_country' });
      expect(await failure(taxClasses.listRateHistories({ countries: ['DE'], taxClassId: 'nope' }))).toEqual({ code: Code.NotFound, reason: 'tax_class_not_found' });
    });

    it('exchange rates: EUR is 1, an unknown currency is not found (never a guess)', async () => {
      const r = await h.client(ExchangeRateService).getExchangeRates({ queries: [{ currency: 'EUR', date: '2025-01-02' }, { currency: 'USD', date: '2025-01-02' }, { currency: 'XYZ', date: '2025-01-02' }] });
      expect(r.answers.map((a) => a.found)).toEqual([true, true, false]);
      expect(r.answers[1]!.rate).toMatch(/^\d+\.\d+$/);
    });
  });
});
