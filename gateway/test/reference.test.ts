import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../../test/support/env';
import { startHarness, type Harness } from '../../test/support/harness';

const backends = await requireBackends(['postgres']);

type TaxClass = { id: string; name: string; description: string; source: string; group_slug: string; group_name: string; tags: string[]; annex_iii_points: unknown[]; preview_rate_bps?: number | null };
type Rate = { country: string; tax_class_id: string; rate_bps: number; valid_from: string; valid_to: string | null; rate_type: string; conditional: boolean; review_status: string; sources: unknown[] };

/** The spec's groups (Tax class section) with the ids it names as examples of each. */
const SPEC_GROUPS: Record<string, string[]> = {
  General: ['standard'],
  'Food and Beverages': ['food', 'food_restaurant'],
  'Health and Pharmaceutical': ['pharma', 'medical_devices', 'medical_dental'],
  'Books and Publications': ['books', 'newspapers', 'periodicals'],
  'Culture and Entertainment': ['admission_cultural', 'admission_sports', 'broadcasting'],
  'Accommodation and Transport': ['accommodation', 'transport_passengers'],
  'Energy and Utilities': ['electricity', 'natural_gas', 'district_heating', 'water_supply'],
  Agriculture: ['agricultural_inputs'],
  Children: ['children_clothing', 'children_car_seats'],
  'Domestic and Local Services': ['domestic_care', 'hairdressing', 'waste_collection', 'funeral_services'],
  'Housing and Renovation': ['renovation_housing', 'social_housing'],
  'Repair Services': ['repair_clothing', 'repair_shoes', 'repair_bicycles', 'bicycles'],
  'Art and Collectibles': ['art_original', 'art_collectibles'],
  Plants: ['plants_flowers'],
};
const SPEC_IDS = Object.values(SPEC_GROUPS).flat();
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T00:00:00Z$/;

/** Member States in the SME convention (EL for Greece) with their national currency on 2026-06-01. */
const SME_CURRENCY_2026: Record<string, string> = {
  AT: 'EUR', BE: 'EUR', BG: 'EUR', CY: 'EUR', CZ: 'CZK', DE: 'EUR', DK: 'DKK', EE: 'EUR', EL: 'EUR', ES: 'EUR', FI: 'EUR', FR: 'EUR', HR: 'EUR', HU: 'HUF',
  IE: 'EUR', IT: 'EUR', LT: 'EUR', LU: 'EUR', LV: 'EUR', MT: 'EUR', NL: 'EUR', PL: 'PLN', PT: 'EUR', RO: 'RON', SE: 'SEK', SI: 'EUR', SK: 'EUR',
};
/** seeds/sme-thresholds/README.md: ES has no exemption and FR 2026 is unverified, both rows with null thresholds. */
const SME_NULL_THRESHOLD_2026 = new Set(['ES', 'FR']);

describe.skipIf(!backends.ok)('reference data over REST', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  const get = (url: string) => h.inject({ method: 'GET', url });
  async function ok<T>(url: string): Promise<T> {
    const res = await get(url);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json() as T;
  }
  async function fails(url: string, status: number, code: string) {
    const res = await get(url);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
    expect(res.json()).toEqual({ error: code, detail: expect.any(String) });
  }

  describe('GET /v1/tax-classes', () => {
    it('lists 37 classes in 14 groups, without preview_rate_bps when no country is given', async () => {
      const { items } = await ok<{ items: TaxClass[] }>('/v1/tax-classes');
      expect(items).toHaveLength(37);
      expect(new Set(items.map((c) => c.id)).size).toBe(37);
      expect(new Set(items.map((c) => c.group_slug)).size).toBe(14);
      for (const c of items) {
        expect(c).toEqual({ id: expect.any(String), name: expect.any(String), description: expect.any(String), source: expect.any(String), group_slug: expect.any(String), group_name: expect.any(String), tags: expect.any(Array), annex_iii_points: expect.any(Array) });
        expect(c.name.length).toBeGreaterThan(0);
        expect('preview_rate_bps' in c).toBe(false);
      }
    });

    it('has every id the spec names, in the group the spec names, and the publications tag', async () => {
      const { items } = await ok<{ items: TaxClass[] }>('/v1/tax-classes');
      const byId = new Map(items.map((c) => [c.id, c]));
      for (const [group, ids] of Object.entries(SPEC_GROUPS)) {
        for (const id of ids) {
          expect(byId.has(id), id).toBe(true);
          expect(byId.get(id)!.group_name, id).toBe(group);
        }
      }
      expect(SPEC_IDS).toHaveLength(34);
      expect(new Set(items.map((c) => c.group_name))).toEqual(new Set(Object.keys(SPEC_GROUPS)));
      expect(byId.get('books')!.group_slug).toBe('books_publications');
      expect(items.some((c) => c.tags.includes('publications'))).toBe(true);
    });

    it('q searches id, name and description, case-insensitively', async () => {
      const { items } = await ok<{ items: TaxClass[] }>('/v1/tax-classes?q=book');
      expect(items.map((c) => c.id)).toContain('books');
      for (const c of items) expect(`${c.id} ${c.name} ${c.description}`.toLowerCase()).toContain('book');
      const upper = await ok<{ items: TaxClass[] }>('/v1/tax-classes?q=BOOK');
      expect(upper.items.map((c) => c.id)).toEqual(items.map((c) => c.id));
      expect((await ok<{ items: TaxClass[] }>('/v1/tax-classes?q=zzzz-no-such-class')).items).toEqual([]);
      // By id fragment that appears in no name.
      expect((await ok<{ items: TaxClass[] }>('/v1/tax-classes?q=plants_flowers')).items.map((c) => c.id)).toEqual(['plants_flowers']);
    });

    it('q of 120 characters is accepted, 121 is 400 invalid_q', async () => {
      expect((await ok<{ items: TaxClass[] }>(`/v1/tax-classes?q=${'a'.repeat(120)}`)).items).toEqual([]);
      await fails(`/v1/tax-classes?q=${'a'.repeat(121)}`, 400, 'invalid_q');
    });

    it('group narrows to one group; the groups partition the 37 classes', async () => {
      const all = (await ok<{ items: TaxClass[] }>('/v1/tax-classes')).items;
      const slugs = [...new Set(all.map((c) => c.group_slug))];
      let total = 0;
      for (const slug of slugs) {
        const { items } = await ok<{ items: TaxClass[] }>(`/v1/tax-classes?group=${slug}`);
        expect(items.length).toBeGreaterThan(0);
        for (const c of items) expect(c.group_slug).toBe(slug);
        total += items.length;
      }
      expect(total).toBe(37);
      const books = (await ok<{ items: TaxClass[] }>('/v1/tax-classes?group=books_publications')).items.map((c) => c.id);
      expect(books).toEqual(expect.arrayContaining(['books', 'newspapers', 'periodicals']));
    });

    it('tag narrows to classes carrying the tag; filters combine', async () => {
      const { items } = await ok<{ items: TaxClass[] }>('/v1/tax-classes?tag=publications');
      expect(items.length).toBeGreaterThan(0);
      for (const c of items) expect(c.tags).toContain('publications');
      const combined = await ok<{ items: TaxClass[] }>('/v1/tax-classes?tag=publications&group=books_publications&q=news');
      for (const c of combined.items) {
        expect(c.tags).toContain('publications');
        expect(c.group_slug).toBe('books_publications');
      }
      expect(combined.items.map((c) => c.id)).toContain('newspapers');
    });

    it('country adds preview_rate_bps: DE standard 1900 in 2024, 1600 during the 2020 cut', async () => {
      const preview = async (at: string) => new Map((await ok<{ items: TaxClass[] }>(`/v1/tax-classes?country=DE&at=${at}`)).items.map((c) => [c.id, c.preview_rate_bps]));
      const p2024 = await preview('2024-01-01');
      expect(p2024.size).toBe(37);
      for (const v of p2024.values()) expect(v === null || Number.isInteger(v)).toBe(true);
      expect(p2024.get('standard')).toBe(1900);
      expect((await preview('2020-08-01')).get('standard')).toBe(1600);
      expect((await preview('2020-08-01T12:00:00Z')).get('standard')).toBe(1600);
      expect((await preview('2021-01-01')).get('standard')).toBe(1900);
    });

    it('preview_rate_bps is the unconditional source-cited rate in force, else null (conditional or absent)', async () => {
      for (const [country, at] of [['DE', '2024-01-01'], ['AT', '2024-06-01'], ['BE', '2022-01-01'], ['GR', '2025-03-01']] as const) {
        const classes = (await ok<{ items: TaxClass[] }>(`/v1/tax-classes?country=${country}&at=${at}`)).items;
        const rates = (await ok<{ rates: Rate[] }>(`/v1/vat/rates?country=${country}&at=${at}`)).rates;
        const byClass = new Map(rates.map((r) => [r.tax_class_id, r]));
        for (const c of classes) {
          const w = byClass.get(c.id);
          const expected = w && !w.conditional && w.review_status === 'source_cited' ? w.rate_bps : null;
          expect(c.preview_rate_bps, `${country} ${c.id} at ${at}`).toBe(expected);
        }
      }
      // Concrete cases from the DE seed: conditional window, and a class with no DE window at all.
      const de = new Map((await ok<{ items: TaxClass[] }>('/v1/tax-classes?country=DE&at=2024-01-01')).items.map((c) => [c.id, c.preview_rate_bps]));
      const deRates = (await ok<{ rates: Rate[] }>('/v1/vat/rates?country=DE&at=2024-01-01')).rates;
      const conditional = deRates.find((r) => r.conditional);
      expect(conditional, 'DE has a conditional window in 2024').toBeDefined();
      expect(de.get(conditional!.tax_class_id)).toBeNull();
      const absent = [...de.keys()].find((id) => !deRates.some((r) => r.tax_class_id === id));
      expect(absent, 'some class has no DE window in 2024').toBeDefined();
      expect(de.get(absent!)).toBeNull();
    });

    it.each([
      ['q of 121 characters', `q=${'x'.repeat(121)}`, 'invalid_q'],
      ['unknown group', 'group=no_such_group', 'unknown_group'],
      ['unknown tag', 'tag=no_such_tag', 'unknown_tag'],
      ['country XX', 'country=XX', 'invalid_country'],
      ['lower-case country', 'country=de', 'invalid_country'],
      ['SME-style EL for Greece', 'country=EL', 'invalid_country'],
      ['three-letter country', 'country=DEU', 'invalid_country'],
      ['bad at', 'at=yesterday', 'invalid_at'],
      ['impossible date at', 'at=2024-02-30', 'invalid_at'],
      ['unknown parameter', 'foo=1', 'unknown_parameter'],
      ['repeated parameter', 'group=general&group=children', 'unknown_group'],
    ])('%s answers 400 %s', async (_n, qs, code) => {
      await fails(`/v1/tax-classes?${qs}`, 400, code);
    });
  });

  describe('GET /v1/tax-classes/{id}', () => {
    it('returns the class with one rate per Member State in force, with timestamp bounds', async () => {
      const c = await ok<TaxClass & { rates: Rate[] }>('/v1/tax-classes/standard?at=2024-06-01');
      expect(c.id).toBe('standard');
      expect(c.group_slug).toBe('general');
      expect(c.rates).toHaveLength(27);
      expect(new Set(c.rates.map((r) => r.country)).size).toBe(27);
      for (const r of c.rates) {
        expect(Number.isInteger(r.rate_bps)).toBe(true);
        expect(r.valid_from).toMatch(TIMESTAMP);
        if (r.valid_to !== null) expect(r.valid_to).toMatch(TIMESTAMP);
        expect(r.valid_from <= '2024-06-01T00:00:00Z').toBe(true);
        if (r.valid_to !== null) expect(r.valid_to > '2024-06-01T00:00:00Z').toBe(true);
      }
    });

    it('country limits the rates; at selects the window (DE 2020 cut)', async () => {
      const cut = await ok<{ rates: Rate[] }>('/v1/tax-classes/standard?country=DE&at=2020-08-01');
      expect(cut.rates).toHaveLength(1);
      expect(cut.rates[0]).toMatchObject({ country: 'DE', rate_bps: 1600, valid_from: '2020-07-01T00:00:00Z', valid_to: '2021-01-01T00:00:00Z' });
      const now = await ok<{ rates: Rate[] }>('/v1/tax-classes/standard?country=DE&at=2024-01-01');
      expect(now.rates[0]).toMatchObject({ country: 'DE', rate_bps: 1900, valid_to: null });
      // Greece is GR (ISO) here, not the SME endpoint's EL.
      const gr = await ok<{ rates: Rate[] }>('/v1/tax-classes/standard?country=GR&at=2024-01-01');
      expect(gr.rates[0]).toMatchObject({ country: 'GR', rate_bps: 2400 });
    });

    it('agrees with GET /v1/vat/rates for every class', async () => {
      const rates = (await ok<{ rates: Rate[] }>('/v1/vat/rates?country=FR&at=2023-03-15')).rates;
      const all = (await ok<{ items: TaxClass[] }>('/v1/tax-classes')).items;
      for (const c of all) {
        const one = await ok<{ rates: Rate[] }>(`/v1/tax-classes/${c.id}?country=FR&at=2023-03-15`);
        expect(one.rates, c.id).toEqual(rates.filter((r) => r.tax_class_id === c.id));
      }
    });

    it('answers an unknown id with 404 tax_class_not_found', async () => {
      await fails('/v1/tax-classes/no_such_class', 404, 'tax_class_not_found');
      await fails('/v1/tax-classes/STANDARD', 404, 'tax_class_not_found');
    });

    it.each([
      ['country=XX', 'invalid_country'],
      ['at=2024-13-01', 'invalid_at'],
      ['q=standard', 'unknown_parameter'],
    ])('answers %s with 400 %s', async (qs, code) => {
      await fails(`/v1/tax-classes/standard?${qs}`, 400, code);
    });
  });

  describe('GET /v1/vat/rates', () => {
    it('lists every class with a window at the date, one each, for the country', async () => {
      const body = await ok<{ country: string; at: string; data_release_digest: string; rates: Rate[] }>('/v1/vat/rates?country=DE&at=2024-01-01T10:00:00Z');
      expect(body.country).toBe('DE');
      expect(body.at).toBe('2024-01-01');
      expect(body.data_release_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      const ids = body.rates.map((r) => r.tax_class_id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toContain('standard');
      for (const r of body.rates) {
        expect(r.country).toBe('DE');
        expect(r.valid_from <= '2024-01-01T00:00:00Z').toBe(true);
        if (r.valid_to !== null) expect(r.valid_to > '2024-01-01T00:00:00Z').toBe(true);
      }
      expect(body.rates.find((r) => r.tax_class_id === 'standard')!.rate_bps).toBe(1900);
      const cut = await ok<{ rates: Rate[] }>('/v1/vat/rates?country=DE&at=2020-08-01&tax_class_id=standard');
      expect(cut.rates.map((r) => r.rate_bps)).toEqual([1600]);
    });

    it('history=true with tax_class_id gives the full dated history (DE standard: the 2020 cut)', async () => {
      const body = await ok<{ at: string | null; rates: Rate[] }>('/v1/vat/rates?country=DE&tax_class_id=standard&history=true');
      expect(body.at).toBeNull();
      const windows = body.rates.map((r) => [r.valid_from, r.valid_to, r.rate_bps]);
      expect(windows).toEqual(
        expect.arrayContaining([
          ['2020-07-01T00:00:00Z', '2021-01-01T00:00:00Z', 1600],
          ['2021-01-01T00:00:00Z', null, 1900],
        ]),
      );
      expect(windows[0]).toEqual(['2019-01-01T00:00:00Z', '2020-07-01T00:00:00Z', 1900]);
      // Ordered, non-overlapping, only the last one open-ended.
      for (let i = 1; i < body.rates.length; i++) {
        expect(body.rates[i - 1]!.valid_to).not.toBeNull();
        expect(body.rates[i - 1]!.valid_to! <= body.rates[i]!.valid_from).toBe(true);
      }
      for (const r of body.rates) expect(r.tax_class_id).toBe('standard');
    });

    it('history=false is the same as no history', async () => {
      const a = await ok<unknown>('/v1/vat/rates?country=AT&at=2024-01-01&history=false');
      const b = await ok<unknown>('/v1/vat/rates?country=AT&at=2024-01-01');
      expect(a).toEqual(b);
    });

    it('returns no rates before the recorded coverage', async () => {
      expect((await ok<{ rates: Rate[] }>('/v1/vat/rates?country=DE&at=1950-01-01')).rates).toEqual([]);
    });

    it.each([
      ['no country', '', 400, 'invalid_country'],
      ['country XX', 'country=XX', 400, 'invalid_country'],
      ['lower-case country', 'country=de', 400, 'invalid_country'],
      ['bad at', 'country=DE&at=soon', 400, 'invalid_at'],
      ['unknown class', 'country=DE&tax_class_id=nope', 404, 'tax_class_not_found'],
      ['history without class', 'country=DE&history=true', 400, 'history_requires_tax_class'],
      ['history with at', 'country=DE&tax_class_id=standard&history=true&at=2020-01-01', 400, 'invalid_at'],
      ['history not a boolean', 'country=DE&tax_class_id=standard&history=yes', 400, 'invalid_history'],
      ['unknown parameter', 'country=DE&date=2020-01-01', 400, 'unknown_parameter'],
    ] as const)('%s answers %i %s', async (_n, qs, status, code) => {
      await fails(`/v1/vat/rates${qs ? `?${qs}` : ''}`, status, code);
    });
  });

  describe('POST /v1/vat/sme-eligibility', () => {
    const sme = (payload: unknown) => h.inject({ method: 'POST', url: '/v1/vat/sme-eligibility', payload: payload as object });
    const smeRaw = (payload: string) => h.inject({ method: 'POST', url: '/v1/vat/sme-eligibility', headers: { 'content-type': 'application/json' }, payload });
    async function smeFails(payload: unknown, status: number, code: string) {
      const res = typeof payload === 'string' ? await smeRaw(payload) : await sme(payload);
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(status);
      expect(res.json()).toEqual({ error: code, detail: expect.any(String) });
      return res.json() as { error: string; detail: string };
    }
    const base = { country: 'DE', currency: 'EUR', annual_turnover_nac: 100, reference_date: '2026-06-01' };

    it.each([
      ['malformed JSON', '{"country": "DE"'],
      ['an array', '[]'],
      ['null', 'null'],
      ['a string', '"DE"'],
      ['a number', '42'],
      ['a boolean', 'true'],
      ['an array of objects', '[{"country": "DE"}]'],
    ])('answers %s with 400 invalid_json', async (_n, raw) => {
      await smeFails(raw, 400, 'invalid_json');
    });

    it('answers an extra field with 400 unknown_field', async () => {
      await smeFails({ ...base, vat_id: 'DE123' }, 400, 'unknown_field');
      expect((await smeFails({ ...base, foo: 1 }, 400, 'unknown_field')).detail).toMatch(/foo/);
      await smeFails({ ...base, __proto__x: 1 }, 400, 'unknown_field');
    });

    it.each([
      ['missing', { ...base, country: undefined }],
      ['GR (Greece is EL here)', { ...base, country: 'GR' }],
      ['lower case', { ...base, country: 'de' }],
      ['not a Member State', { ...base, country: 'US' }],
      ['XX', { ...base, country: 'XX' }],
      ['a number', { ...base, country: 49 }],
      ['null', { ...base, country: null }],
      ['empty', { ...base, country: '' }],
    ])('country %s answers 400 invalid_country', async (_n, body) => {
      const err = await smeFails(body, 400, 'invalid_country');
      if (body.country === 'GR') expect(err.detail).toContain('EL');
    });

    it.each([
      ['missing', { ...base, currency: undefined }],
      ['not an EU national currency', { ...base, currency: 'USD' }],
      ['lower case', { ...base, currency: 'eur' }],
      ['four letters', { ...base, currency: 'EURO' }],
      ['a number', { ...base, currency: 978 }],
      ['null', { ...base, currency: null }],
      ['empty', { ...base, currency: '' }],
    ])('currency %s answers 400 invalid_currency', async (_n, body) => {
      await smeFails(body, 400, 'invalid_currency');
    });

    it.each([
      ['missing', undefined],
      ['negative', -1],
      ['a float', 100.5],
      ['a string', '100'],
      ['huge (2^53)', 2 ** 53],
      ['huge (1e300)', 1e300],
      ['null', null],
      ['a boolean', true],
      ['an array', [1]],
      ['an object', {}],
    ])('annual_turnover_nac %s answers 400 invalid_turnover', async (_n, v) => {
      await smeFails({ ...base, annual_turnover_nac: v }, 400, 'invalid_turnover');
    });

    it('accepts the largest safe integer turnover', async () => {
      const res = await sme({ ...base, annual_turnover_nac: Number.MAX_SAFE_INTEGER });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().eligibility_status).toBe('ineligible');
      expect(res.json().exceeded_by_nac).toBe(Number.MAX_SAFE_INTEGER - 25_000 * 100);
    });

    it.each([
      ['impossible date', '2024-02-30'],
      ['unpadded', '2024-6-1'],
      ['a timestamp', '2026-06-01T00:00:00Z'],
      ['null', null],
      ['a number', 20260601],
      ['empty', ''],
    ])('reference_date %s answers 400 invalid_reference_date', async (_n, v) => {
      await smeFails({ ...base, reference_date: v }, 400, 'invalid_reference_date');
    });

    it('validates in the documented order: country before turnover before currency before date', async () => {
      await smeFails({ country: 'GR', annual_turnover_nac: -1, currency: 'usd', reference_date: 'x' }, 400, 'invalid_country');
      await smeFails({ country: 'DE', annual_turnover_nac: -1, currency: 'usd', reference_date: 'x' }, 400, 'invalid_turnover');
      await smeFails({ country: 'DE', annual_turnover_nac: 1, currency: 'usd', reference_date: 'x' }, 400, 'invalid_currency');
    });

    it.each([
      ['LT before its first row', { country: 'LT', currency: 'EUR', annual_turnover_nac: 1, reference_date: '2024-06-01' }],
      ['MT before its first row', { country: 'MT', currency: 'EUR', annual_turnover_nac: 1, reference_date: '2024-06-01' }],
      ['FR before 2025', { country: 'FR', currency: 'EUR', annual_turnover_nac: 1, reference_date: '2024-06-01' }],
      ['DE before any national-currency data', { country: 'DE', currency: 'EUR', annual_turnover_nac: 1, reference_date: '1990-01-01' }],
    ])('%s answers 404 no_sme_data', async (_n, body) => {
      await smeFails(body, 404, 'no_sme_data');
    });

    it('a Member State currency other than the national one answers 422 currency_mismatch naming the right one', async () => {
      const err = await smeFails({ ...base, currency: 'SEK' }, 422, 'currency_mismatch');
      expect(err.detail).toContain('EUR');
    });

    describe('euro changeovers', () => {
      it.each([
        ['BG', 'BGN', '2025-12-31', 100_000],
        ['BG', 'EUR', '2026-01-01', 51_130],
        ['HR', 'HRK', '2022-12-31', 300_000],
        ['HR', 'EUR', '2023-01-01', 40_000],
      ])('%s in %s on %s: threshold %i, compared in minor units', async (country, currency, date, threshold) => {
        const at = await sme({ country, currency, annual_turnover_nac: threshold * 100, reference_date: date });
        expect(at.statusCode, at.body).toBe(200);
        expect(at.json()).toMatchObject({ country, currency, reference_date: date, exemption_threshold_nac: threshold, eligibility_status: 'eligible', eligible_for_exemption: true, exceeded_by_nac: 0 });
        const over = await sme({ country, currency, annual_turnover_nac: threshold * 100 + 1, reference_date: date });
        expect(over.json()).toMatchObject({ eligibility_status: 'ineligible', eligible_for_exemption: false, exceeded_by_nac: 1 });
        if (currency === 'EUR') expect(at.json().exemption_threshold_eur).toBe(threshold);
        else expect(at.json().exemption_threshold_eur).toBeNull();
      });

      it.each([
        ['BG', 'EUR', '2025-12-31', 'BGN'],
        ['BG', 'BGN', '2026-01-01', 'EUR'],
        ['HR', 'EUR', '2022-12-31', 'HRK'],
        ['HR', 'HRK', '2023-01-01', 'EUR'],
      ])('%s in %s on %s answers 422 currency_mismatch (national currency %s)', async (country, currency, date, national) => {
        const err = await smeFails({ country, currency, annual_turnover_nac: 1, reference_date: date }, 422, 'currency_mismatch');
        expect(err.detail).toContain(national);
      });
    });

    describe('every Member State on 2026-06-01', () => {
      it('covers the 27 Member States', () => {
        expect(Object.keys(SME_CURRENCY_2026)).toHaveLength(27);
      });

      it.each(Object.entries(SME_CURRENCY_2026))('%s (%s): full result shape, threshold boundary', async (country, currency) => {
        const res = await sme({ country, currency, annual_turnover_nac: 0, reference_date: '2026-06-01' });
        expect([200, 404], res.body).toContain(res.statusCode);
        if (res.statusCode === 404) {
          expect(res.json()).toEqual({ error: 'no_sme_data', detail: expect.any(String) });
          return;
        }
        const r = res.json();
        expect(Object.keys(r).sort()).toEqual(
          ['annual_turnover_nac', 'country', 'currency', 'data_situation_on', 'disclaimer', 'eligibility_status', 'eligible_for_exemption', 'exceeded_by_nac', 'exemption_threshold_eur', 'exemption_threshold_nac', 'policy', 'reference_date', 'scheme_type', 'sectorals'].sort(),
        );
        expect(r).toMatchObject({ country, currency, annual_turnover_nac: 0, reference_date: '2026-06-01' });
        expect(r.scheme_type).toEqual(expect.any(String));
        expect(r.data_situation_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(r.disclaimer.length).toBeGreaterThan(20);
        expect(Object.keys(r.policy).sort()).toEqual(['exclusion_article288_quarantine_period', 'one_national_annual_threshold', 'voluntary_cessation_article290']);
        for (const s of r.sectorals) expect(Object.keys(s).sort()).toEqual(['comment', 'exemption_threshold_eur', 'exemption_threshold_nac', 'sector']);
        if (currency !== 'EUR') expect(r.exemption_threshold_eur).toBeNull(); // never converted by exchange rate

        if (SME_NULL_THRESHOLD_2026.has(country)) {
          expect(r).toMatchObject({ eligibility_status: 'indeterminate', eligible_for_exemption: null, exceeded_by_nac: null, exemption_threshold_nac: null });
          return;
        }
        expect(r).toMatchObject({ eligibility_status: 'eligible', eligible_for_exemption: true, exceeded_by_nac: 0 });
        const threshold = r.exemption_threshold_nac as number;
        expect(Number.isInteger(threshold) && threshold > 0).toBe(true);
        if (currency === 'EUR') expect(r.exemption_threshold_eur).toBe(threshold);
        // Equal to the threshold is eligible ("does not exceed"); one minor unit more is not.
        const at = (await sme({ country, currency, annual_turnover_nac: threshold * 100, reference_date: '2026-06-01' })).json();
        expect(at).toMatchObject({ eligibility_status: 'eligible', exceeded_by_nac: 0 });
        const over = (await sme({ country, currency, annual_turnover_nac: threshold * 100 + 1, reference_date: '2026-06-01' })).json();
        expect(over).toMatchObject({ eligibility_status: 'ineligible', eligible_for_exemption: false, exceeded_by_nac: 1 });
      });
    });

    it('defaults reference_date to today (UTC)', async () => {
      const res = await sme({ country: 'DE', currency: 'EUR', annual_turnover_nac: 1 });
      expect(res.statusCode, res.body).toBe(200);
      const today = new Date().toISOString().slice(0, 10);
      expect([today, new Date(Date.now() - 5000).toISOString().slice(0, 10)]).toContain(res.json().reference_date);
    });
  });
});
