import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SME_THRESHOLDS_URL, isIsoCalendarDate, loadSmeThresholds, parseSmeDocument, type SmeDocument, type SmeThresholdRow } from './data.ts';
import { MEMBER_STATES } from './national-currency.ts';

const raw = (): SmeDocument => JSON.parse(readFileSync(SME_THRESHOLDS_URL, 'utf8')) as SmeDocument;

function withRows(rows: SmeThresholdRow[]): SmeDocument {
  const doc = raw();
  return { ...doc, rows };
}

const baseRow = (over: Partial<SmeThresholdRow>): SmeThresholdRow => ({
  country: 'DE',
  valid_from: '2025-01-01',
  valid_to: null,
  currency: 'EUR',
  exemption_threshold_nac: null,
  exemption_threshold_eur: 25000,
  scheme_type: 'Regular scheme',
  policy: { one_national_annual_threshold: null, exclusion_article288_quarantine_period: null, voluntary_cessation_article290: null },
  sectorals: [],
  data_situation_on: '2025-01-01',
  source_ids: [raw().sources[0]!.id],
  review_status: 'source_cited',
  note: 'test',
  ...over,
});

describe('seed file', () => {
  it('loads and validates, covering all 27 Member States', () => {
    const doc = loadSmeThresholds();
    expect(doc.schema_version).toBe('sme-thresholds/v1');
    const countries = new Set(doc.rows.map((r) => r.country));
    expect([...countries].sort()).toEqual([...MEMBER_STATES]);
    const parsed = parseSmeDocument(raw());
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.report.transitionGapRows).toEqual([]);
  });

  it('has the expected key rows', () => {
    const rows = loadSmeThresholds().rows;
    const at = (c: string, d: string) => rows.find((r) => r.country === c && r.valid_from <= d && (r.valid_to === null || d < r.valid_to));
    expect(at('DE', '2024-12-31')?.exemption_threshold_eur).toBe(22000);
    expect(at('DE', '2025-01-01')?.exemption_threshold_eur).toBe(25000);
    expect(at('BG', '2025-12-31')).toMatchObject({ currency: 'BGN', exemption_threshold_nac: 100000 });
    expect(at('BG', '2026-01-01')).toMatchObject({ currency: 'EUR', exemption_threshold_eur: 51130 });
    expect(at('HR', '2022-12-31')).toMatchObject({ currency: 'HRK', exemption_threshold_nac: 300000 });
    expect(at('HR', '2023-01-01')).toMatchObject({ currency: 'EUR', exemption_threshold_eur: 40000 });
    expect(at('ES', '2026-11-22')).toMatchObject({ exemption_threshold_nac: null, exemption_threshold_eur: null });
    // no EUR value is ever stored for a non-euro row (never converted)
    for (const r of rows) if (r.currency !== 'EUR') expect(r.exemption_threshold_eur, `${r.country} ${r.valid_from}`).toBeNull();
  });
});

describe('schema strictness', () => {
  it('rejects unknown keys at every level', () => {
    const d1 = { ...raw(), extra: 1 };
    expect(parseSmeDocument(d1).ok).toBe(false);
    const d2 = raw();
    (d2.rows[0] as unknown as Record<string, unknown>)['extra'] = true;
    expect(parseSmeDocument(d2).ok).toBe(false);
    const d3 = raw();
    (d3.rows[0]!.policy as unknown as Record<string, unknown>)['extra'] = true;
    expect(parseSmeDocument(d3).ok).toBe(false);
    const d4 = raw();
    (d4.sources[0] as unknown as Record<string, unknown>)['extra'] = true;
    expect(parseSmeDocument(d4).ok).toBe(false);
  });

  it('rejects bad values', () => {
    for (const over of [
      { valid_from: '2025-02-30' },
      { exemption_threshold_eur: -1 },
      { exemption_threshold_eur: 1.5 },
      { exemption_threshold_eur: 2 ** 53 },
      { review_status: 'guess' },
      { source_ids: [] },
      { currency: 'eur' },
    ] as Array<Partial<SmeThresholdRow>>) {
      const doc = withRows([baseRow(over)]);
      expect(parseSmeDocument(doc, { requireAllMemberStates: false }).ok, JSON.stringify(over)).toBe(false);
    }
  });
});

describe('semantic validation', () => {
  const opts = { requireAllMemberStates: false };
  it('accepts a minimal valid document', () => {
    expect(parseSmeDocument(withRows([baseRow({})]), opts).ok).toBe(true);
  });
  it('requires every Member State by default', () => {
    const r = parseSmeDocument(withRows([baseRow({})]));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.some((e) => e.startsWith('AT: no rows'))).toBe(true);
  });
  it('rejects overlapping windows', () => {
    const r = parseSmeDocument(withRows([baseRow({ valid_from: '2024-01-01', valid_to: '2025-06-01' }), baseRow({ valid_from: '2025-01-01' })]), opts);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join('\n')).toMatch(/overlapping/);
    const open = parseSmeDocument(withRows([baseRow({ valid_from: '2024-01-01', valid_to: null }), baseRow({ valid_from: '2025-01-01' })]), opts);
    expect(open.ok).toBe(false);
  });
  it('accepts adjacent windows (exclusive end)', () => {
    expect(parseSmeDocument(withRows([baseRow({ valid_from: '2024-01-01', valid_to: '2025-01-01' }), baseRow({ valid_from: '2025-01-01' })]), opts).ok).toBe(true);
  });
  it('rejects empty or inverted windows, unknown countries and unknown sources', () => {
    expect(parseSmeDocument(withRows([baseRow({ valid_from: '2025-01-01', valid_to: '2025-01-01' })]), opts).ok).toBe(false);
    expect(parseSmeDocument(withRows([baseRow({ country: 'GR' })]), opts).ok).toBe(false);
    expect(parseSmeDocument(withRows([baseRow({ source_ids: ['nope'] })]), opts).ok).toBe(false);
  });
  it('rejects a currency inconsistent with the national currency on valid_from', () => {
    expect(parseSmeDocument(withRows([baseRow({ country: 'BG', valid_from: '2026-01-01', currency: 'BGN', exemption_threshold_nac: 100000, exemption_threshold_eur: null })]), opts).ok).toBe(false);
    expect(parseSmeDocument(withRows([baseRow({ country: 'HR', valid_from: '2022-01-01', valid_to: '2023-01-01', currency: 'EUR' })]), opts).ok).toBe(false);
    expect(parseSmeDocument(withRows([baseRow({ country: 'CZ', currency: 'EUR' })]), opts).ok).toBe(false);
  });
  it('flags rows spanning a currency change as transition-gap rows', () => {
    const r = parseSmeDocument(withRows([baseRow({ country: 'BG', valid_from: '2023-01-01', valid_to: null, currency: 'BGN', exemption_threshold_nac: 100000, exemption_threshold_eur: null })]), opts);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.report.transitionGapRows).toEqual([{ country: 'BG', valid_from: '2023-01-01', currency: 'BGN', currencies: ['BGN', 'EUR'] }]);
  });
});

describe('isIsoCalendarDate', () => {
  it('checks calendar validity', () => {
    expect(isIsoCalendarDate('2024-02-29')).toBe(true);
    expect(isIsoCalendarDate('2025-02-29')).toBe(false);
    expect(isIsoCalendarDate('1900-02-29')).toBe(false);
    expect(isIsoCalendarDate('2000-02-29')).toBe(true);
    expect(isIsoCalendarDate('2025-04-31')).toBe(false);
    expect(isIsoCalendarDate('2025-00-10')).toBe(false);
    expect(isIsoCalendarDate('0000-01-01')).toBe(false);
    expect(isIsoCalendarDate('2025-1-01')).toBe(false);
    expect(isIsoCalendarDate(' 2025-01-01')).toBe(false);
    expect(isIsoCalendarDate(20250101)).toBe(false);
  });
});
