import { describe, it, expect } from 'vitest';
import { mkdtempSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EU_MEMBER_STATES } from '@vat/platform/countries';
import {
  loadTaxClasses,
  loadVatRates,
  seedDigest,
  validateRateSeeds,
  type VatRateRow,
  type VatRateSeed,
} from './vat-rates.ts';

/**
 * Look up the row in force for (country, class) on `date` (YYYY-MM-DD).
 * Returns undefined when absent (caller must fail closed). Conditional rows are
 * returned as-is; callers decide (the calculator refuses them as plain numbers).
 */
function findRate(
  rates: VatRateSeed[],
  country: string,
  taxClassId: string,
  date: string,
): VatRateRow | undefined {
  const seed = rates.find((s) => s.country === country);
  if (!seed) return undefined;
  return seed.rates.find(
    (r) =>
      r.tax_class_id === taxClassId &&
      r.valid_from <= date &&
      (r.valid_to === null || date < r.valid_to),
  );
}

const classes = loadTaxClasses();
const rates = loadVatRates();

const clone = <T>(v: T): T => structuredClone(v);
const seedOf = (all: VatRateSeed[], cc: string) => {
  const s = all.find((x) => x.country === cc);
  if (!s) throw new Error(`no seed for ${cc}`);
  return s;
};

describe('tax classes', () => {
  it('has 14 groups with the required slugs and names', () => {
    expect(classes.groups).toEqual([
      { slug: 'general', name: 'General' },
      { slug: 'food_beverages', name: 'Food and Beverages' },
      { slug: 'health_pharmaceutical', name: 'Health and Pharmaceutical' },
      { slug: 'books_publications', name: 'Books and Publications' },
      { slug: 'culture_entertainment', name: 'Culture and Entertainment' },
      { slug: 'accommodation_transport', name: 'Accommodation and Transport' },
      { slug: 'energy_utilities', name: 'Energy and Utilities' },
      { slug: 'agriculture', name: 'Agriculture' },
      { slug: 'children', name: 'Children' },
      { slug: 'domestic_local_services', name: 'Domestic and Local Services' },
      { slug: 'housing_renovation', name: 'Housing and Renovation' },
      { slug: 'repair_services', name: 'Repair Services' },
      { slug: 'art_collectibles', name: 'Art and Collectibles' },
      { slug: 'plants', name: 'Plants' },
    ]);
  });

  it('has 37 classes with unique ids', () => {
    expect(classes.classes).toHaveLength(37);
    expect(new Set(classes.classes.map((c) => c.id)).size).toBe(37);
  });

  const required: Record<string, string> = {
    standard: 'general',
    food: 'food_beverages',
    food_restaurant: 'food_beverages',
    pharma: 'health_pharmaceutical',
    medical_devices: 'health_pharmaceutical',
    medical_dental: 'health_pharmaceutical',
    books: 'books_publications',
    newspapers: 'books_publications',
    periodicals: 'books_publications',
    admission_cultural: 'culture_entertainment',
    admission_sports: 'culture_entertainment',
    broadcasting: 'culture_entertainment',
    accommodation: 'accommodation_transport',
    transport_passengers: 'accommodation_transport',
    electricity: 'energy_utilities',
    natural_gas: 'energy_utilities',
    district_heating: 'energy_utilities',
    water_supply: 'energy_utilities',
    agricultural_inputs: 'agriculture',
    children_clothing: 'children',
    children_car_seats: 'children',
    domestic_care: 'domestic_local_services',
    hairdressing: 'domestic_local_services',
    waste_collection: 'domestic_local_services',
    funeral_services: 'domestic_local_services',
    renovation_housing: 'housing_renovation',
    social_housing: 'housing_renovation',
    repair_clothing: 'repair_services',
    repair_shoes: 'repair_services',
    repair_bicycles: 'repair_services',
    bicycles: 'repair_services',
    art_original: 'art_collectibles',
    art_collectibles: 'art_collectibles',
    plants_flowers: 'plants',
  };

  it.each(Object.entries(required))('class %s exists in group %s', (id, group) => {
    const c = classes.classes.find((x) => x.id === id);
    expect(c, id).toBeDefined();
    expect(c!.group_slug).toBe(group);
  });

  it('documents the 3 extra classes in notes, each with Annex III points', () => {
    const extra = classes.classes.filter((c) => !(c.id in required));
    expect(extra).toHaveLength(3);
    for (const c of extra) {
      expect(classes.notes).toContain(c.id);
      expect(c.annex_iii_points.length).toBeGreaterThan(0);
    }
  });

  it('tags every publication class with "publications"', () => {
    for (const id of ['books', 'newspapers', 'periodicals']) {
      expect(classes.classes.find((c) => c.id === id)!.tags).toContain('publications');
    }
    const ePubs = classes.classes.filter((c) => /publication|e_?book/.test(c.id) && c.group_slug === 'books_publications');
    expect(ePubs.length).toBeGreaterThan(0);
    for (const c of ePubs) expect(c.tags).toContain('publications');
  });
});

describe('shipped rate seeds', () => {
  it('covers exactly the 27 Member States (GR for Greece)', () => {
    expect(EU_MEMBER_STATES).toHaveLength(27);
    expect(EU_MEMBER_STATES).toContain('GR');
    expect(EU_MEMBER_STATES).not.toContain('EL');
    expect(rates.map((r) => r.country)).toEqual([...EU_MEMBER_STATES]);
  });

  it('validateRateSeeds returns no problems', () => {
    expect(validateRateSeeds(classes, rates)).toEqual([]);
  });

  it('every window has a source and a review status; every source_cited window cites a consulted source with a URL', () => {
    for (const seed of rates) {
      const consulted = new Map(seed.sources.map((s) => [s.id, s.consulted !== false ? s.url : null]));
      for (const r of seed.rates) {
        const w = `${seed.country} ${r.tax_class_id} ${r.valid_from}`;
        expect(r.source_ids.length, w).toBeGreaterThan(0);
        expect(['source_cited', 'knowledge_unverified'], w).toContain(r.review_status);
        if (r.review_status === 'source_cited') {
          expect(r.source_ids.some((id) => /^https?:\/\//.test(consulted.get(id) ?? '')), w).toBe(true);
        }
      }
    }
  });

  it('no two windows of one (country, class) overlap', () => {
    for (const seed of rates) {
      const byClass = new Map<string, VatRateRow[]>();
      for (const r of seed.rates) byClass.set(r.tax_class_id, [...(byClass.get(r.tax_class_id) ?? []), r]);
      for (const [cls, list] of byClass) {
        const sorted = [...list].sort((a, b) => a.valid_from.localeCompare(b.valid_from));
        for (let i = 1; i < sorted.length; i++) {
          expect(sorted[i - 1]!.valid_to !== null && sorted[i - 1]!.valid_to! <= sorted[i]!.valid_from, `${seed.country}/${cls} ${sorted[i]!.valid_from}`).toBe(true);
        }
      }
    }
  });

  it('README lists every plain unverified window in force since 2024 (issue 13)', () => {
    // Review date of the issue-13 pass; a plain (non-conditional) window in force on any date from
    // 2024-01-01 to this date that is still knowledge_unverified must be listed with the reason in the README.
    const REVIEW_DATE = '2026-11-24';
    const readme = readFileSync(new URL('../README-rates.md', import.meta.url), 'utf8');
    const section = readme.split('<!-- unverified-2024:start -->')[1]?.split('<!-- unverified-2024:end -->')[0] ?? '';
    expect(section.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const seed of rates) {
      for (const r of seed.rates) {
        if (r.conditional || r.review_status !== 'knowledge_unverified' || r.tax_class_id === 'standard') continue;
        if (r.valid_to !== null && r.valid_to <= '2024-01-01') continue;
        if (r.valid_from > REVIEW_DATE) continue;
        const tag = `\`${seed.country}/${r.tax_class_id}\` from ${r.valid_from}`;
        if (!section.includes(tag)) missing.push(tag);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every exempt row is conditional and every conditional row explains itself', () => {
    for (const seed of rates) {
      for (const r of seed.rates) {
        if (r.rate_type === 'exempt') expect(r.conditional, `${seed.country} ${r.tax_class_id}`).toBe(true);
        if (r.conditional) expect((r.conditions ?? '').length).toBeGreaterThan(10);
      }
    }
  });
});

/**
 * Expected standard rates, written from research (EC TEDB history, national
 * laws, rate-change news), NOT from the JSON. One date before and one after
 * each change, plus a date today (2026-11-22).
 */
const STANDARD_EXPECTED: Record<string, Array<[string, number]>> = {
  AT: [['2019-01-01', 2000], ['2020-07-01', 2000], ['2026-11-22', 2000]],
  BE: [['2019-01-01', 2100], ['2023-06-30', 2100], ['2026-11-22', 2100]],
  BG: [['2019-01-01', 2000], ['2022-07-01', 2000], ['2026-11-22', 2000]],
  CY: [['2019-01-01', 1900], ['2021-06-30', 1900], ['2026-11-22', 1900]],
  CZ: [['2019-01-01', 2100], ['2024-01-01', 2100], ['2026-11-22', 2100]],
  DE: [['2019-01-01', 1900], ['2020-06-30', 1900], ['2020-07-01', 1600], ['2020-12-31', 1600], ['2021-01-01', 1900], ['2026-11-22', 1900]],
  DK: [['2019-01-01', 2500], ['2026-11-22', 2500]],
  EE: [['2019-01-01', 2000], ['2023-12-31', 2000], ['2024-01-01', 2200], ['2025-06-30', 2200], ['2025-07-01', 2400], ['2026-11-22', 2400]],
  ES: [['2019-01-01', 2100], ['2022-07-01', 2100], ['2026-11-22', 2100]],
  FI: [['2019-01-01', 2400], ['2024-08-31', 2400], ['2024-09-01', 2550], ['2026-11-22', 2550]],
  FR: [['2019-01-01', 2000], ['2026-11-22', 2000]],
  GR: [['2019-01-01', 2400], ['2020-06-01', 2400], ['2026-11-22', 2400]],
  HR: [['2019-01-01', 2500], ['2026-11-22', 2500]],
  HU: [['2019-01-01', 2700], ['2026-11-22', 2700]],
  IE: [['2019-01-01', 2300], ['2020-08-31', 2300], ['2020-09-01', 2100], ['2021-02-28', 2100], ['2021-03-01', 2300], ['2026-11-22', 2300]],
  IT: [['2019-01-01', 2200], ['2026-11-22', 2200]],
  LT: [['2019-01-01', 2100], ['2026-01-01', 2100], ['2026-11-22', 2100]],
  LU: [['2019-01-01', 1700], ['2022-12-31', 1700], ['2023-01-01', 1600], ['2023-12-31', 1600], ['2024-01-01', 1700], ['2026-11-22', 1700]],
  LV: [['2019-01-01', 2100], ['2026-11-22', 2100]],
  MT: [['2019-01-01', 1800], ['2026-11-22', 1800]],
  NL: [['2019-01-01', 2100], ['2026-01-01', 2100], ['2026-11-22', 2100]],
  PL: [['2019-01-01', 2300], ['2022-02-01', 2300], ['2026-11-22', 2300]],
  PT: [['2019-01-01', 2300], ['2026-11-22', 2300]],
  RO: [['2019-01-01', 1900], ['2025-07-31', 1900], ['2025-08-01', 2100], ['2026-11-22', 2100]],
  SE: [['2019-01-01', 2500], ['2026-04-01', 2500], ['2026-11-22', 2500]],
  SI: [['2019-01-01', 2200], ['2026-11-22', 2200]],
  SK: [['2019-01-01', 2000], ['2024-12-31', 2000], ['2025-01-01', 2300], ['2026-11-22', 2300]],
};

describe('standard rates per Member State (independent table)', () => {
  it('the table covers all 27 Member States', () => {
    expect(Object.keys(STANDARD_EXPECTED).sort()).toEqual([...EU_MEMBER_STATES].sort());
  });

  for (const cc of EU_MEMBER_STATES) {
    it.each(STANDARD_EXPECTED[cc]!)(`${cc} standard rate on %s is %i bps`, (date, bps) => {
      const r = findRate(rates, cc, 'standard', date);
      expect(r, `${cc} ${date}`).toBeDefined();
      expect(r!.rate_bps).toBe(bps);
      expect(r!.conditional).toBe(false);
    });
  }

  it('no standard rate before coverage start', () => {
    for (const cc of EU_MEMBER_STATES) expect(findRate(rates, cc, 'standard', '2018-12-31')).toBeUndefined();
  });
});

/** Spot checks of reduced/zero rates from research (only rows the data ships). */
const SPOT: Array<[cc: string, cls: string, date: string, bps: number | null, conditional?: boolean]> = [
  // Germany: Corona cut H2 2020, restaurant food 7 % until 2023 and again from 2026, gas 7 % 10/2022-03/2024
  ['DE', 'food', '2020-06-30', 700, false],
  ['DE', 'food', '2020-07-01', 500, false],
  ['DE', 'food', '2021-01-01', 700, false],
  ['DE', 'food_restaurant', '2020-06-30', 1900],
  ['DE', 'food_restaurant', '2020-07-01', 500],
  ['DE', 'food_restaurant', '2023-12-31', 700],
  ['DE', 'food_restaurant', '2024-01-01', 1900],
  ['DE', 'food_restaurant', '2025-12-31', 1900],
  ['DE', 'food_restaurant', '2026-01-01', 700],
  ['DE', 'natural_gas', '2022-09-30', 1900],
  ['DE', 'natural_gas', '2022-10-01', 700],
  ['DE', 'natural_gas', '2024-03-31', 700],
  ['DE', 'natural_gas', '2024-04-01', 1900],
  ['DE', 'e_publications', '2019-12-17', 1900],
  ['DE', 'e_publications', '2019-12-18', 700],
  ['DE', 'sanitary_products', '2019-12-31', 1900],
  ['DE', 'sanitary_products', '2020-01-01', 700],
  ['DE', 'solar_panels', '2023-01-01', 0, true],
  ['DE', 'pharma', '2026-11-22', 1900, false],
  // Austria: COVID 5 % 7/2020-12/2021, e-publications from 2020, 4.9 % basic food list from 7/2026
  ['AT', 'accommodation', '2020-06-30', 1000],
  ['AT', 'accommodation', '2021-12-31', 500],
  ['AT', 'accommodation', '2022-01-01', 1000],
  ['AT', 'e_publications', '2019-12-31', 2000],
  ['AT', 'e_publications', '2020-01-01', 1000],
  ['AT', 'food', '2026-06-30', 1000, false],
  ['AT', 'food', '2026-07-01', 1000, true],
  ['AT', 'solar_panels', '2024-06-01', 0, true],
  // Ireland: tourism 9 % 11/2020-8/2023, hospitality 9 % from 7/2026, energy 9 % from 5/2022
  ['IE', 'food_restaurant', '2020-10-31', 1350],
  ['IE', 'food_restaurant', '2020-11-01', 900],
  ['IE', 'food_restaurant', '2023-08-31', 900],
  ['IE', 'food_restaurant', '2023-09-01', 1350],
  ['IE', 'food_restaurant', '2026-07-01', 900],
  ['IE', 'accommodation', '2026-07-01', 1350],
  ['IE', 'electricity', '2022-04-30', 1350],
  ['IE', 'electricity', '2022-05-01', 900],
  ['IE', 'newspapers', '2022-12-31', 900],
  ['IE', 'newspapers', '2023-01-01', 0],
  ['IE', 'books', '2024-01-01', 0],
  // Luxembourg 2023 one-point cut
  ['LU', 'electricity', '2022-12-31', 800],
  ['LU', 'electricity', '2023-01-01', 700],
  ['LU', 'electricity', '2024-01-01', 800],
  ['LU', 'food', '2023-06-01', 300],
  // Estonia 2025 reduced-rate changes, standard-rate windows followed by classes at standard
  ['EE', 'accommodation', '2024-12-31', 900],
  ['EE', 'accommodation', '2025-01-01', 1300],
  ['EE', 'newspapers', '2022-07-31', 900],
  ['EE', 'newspapers', '2022-08-01', 500],
  ['EE', 'newspapers', '2025-01-01', 900],
  ['EE', 'electricity', '2025-07-01', 2400],
  ['EE', 'electricity', '2024-01-01', 2200],
  // Finland: 10 % -> 14 % on 1/2025, 14 % -> 13.5 % on 1/2026, electricity 10 % 12/2022-4/2023
  ['FI', 'books', '2024-12-31', 1000],
  ['FI', 'books', '2025-01-01', 1400],
  ['FI', 'books', '2026-01-01', 1350],
  ['FI', 'food', '2025-12-31', 1400],
  ['FI', 'food', '2026-01-01', 1350],
  ['FI', 'electricity', '2022-11-30', 2400],
  ['FI', 'electricity', '2022-12-01', 1000],
  ['FI', 'electricity', '2023-05-01', 2400],
  ['FI', 'electricity', '2024-09-01', 2550],
  // Sweden temporary food cut 4/2026-12/2027, restaurants stay at 12 %
  ['SE', 'food', '2026-03-31', 1200],
  ['SE', 'food', '2026-04-01', 600],
  ['SE', 'food_restaurant', '2026-04-01', 1200],
  ['SE', 'e_publications', '2019-07-01', 600],
  // Netherlands: energy 9 % H2 2022, accommodation to 21 % in 2026
  ['NL', 'electricity', '2022-07-01', 900],
  ['NL', 'electricity', '2023-01-01', 2100],
  ['NL', 'accommodation', '2025-12-31', 900],
  ['NL', 'accommodation', '2026-01-01', 2100],
  ['NL', 'admission_cultural', '2026-01-01', 900],
  // Belgium: accommodation 12 % from 3/2026, COVID restaurant cut
  ['BE', 'accommodation', '2026-02-28', 600],
  ['BE', 'accommodation', '2026-03-01', 1200],
  ['BE', 'food_restaurant', '2020-06-07', 1200],
  ['BE', 'food_restaurant', '2020-06-08', 600],
  ['BE', 'food_restaurant', '2021-01-01', 1200],
  ['BE', 'food_restaurant', '2021-05-08', 600],
  ['BE', 'food_restaurant', '2021-09-30', 600],
  ['BE', 'food_restaurant', '2021-10-01', 1200],
  ['BE', 'admission_sports', '2026-03-01', null],
  // Czechia: May 2020 reshuffle and 2024 merger into 12 %
  ['CZ', 'food_restaurant', '2020-04-30', 1500],
  ['CZ', 'food_restaurant', '2020-05-01', 1000],
  ['CZ', 'food_restaurant', '2024-01-01', 1200],
  ['CZ', 'food', '2023-12-31', 1500],
  ['CZ', 'food', '2024-01-01', 1200],
  ['CZ', 'books', '2024-01-01', 0],
  ['CZ', 'electricity', '2022-11-15', 0, true],
  // Slovakia 2025
  ['SK', 'pharma', '2024-12-31', 1000],
  ['SK', 'pharma', '2025-01-01', 500],
  ['SK', 'electricity', '2024-12-31', 2000],
  ['SK', 'electricity', '2025-01-01', 1900],
  // Romania 1 August 2025
  ['RO', 'food', '2025-07-31', 900],
  ['RO', 'food', '2025-08-01', 1100],
  ['RO', 'books', '2025-07-31', 500],
  ['RO', 'books', '2025-08-01', 1100],
  ['RO', 'electricity', '2025-08-01', 2100],
  // Lithuania 2026
  ['LT', 'accommodation', '2025-12-31', 900],
  ['LT', 'accommodation', '2026-01-01', 1200],
  ['LT', 'books', '2026-01-01', 500],
  ['LT', 'district_heating', '2026-01-01', 2100],
  // Bulgaria COVID restaurant cut 7/2020-12/2024
  ['BG', 'food_restaurant', '2020-06-30', 2000],
  ['BG', 'food_restaurant', '2020-07-01', 900],
  ['BG', 'food_restaurant', '2025-01-01', 2000],
  // Greece 20 May 2019
  ['GR', 'food_restaurant', '2019-05-19', 2400],
  ['GR', 'food_restaurant', '2019-05-20', 1300],
  ['GR', 'electricity', '2019-05-20', 600],
  // Croatia 1 April 2022
  ['HR', 'sanitary_products', '2022-03-31', 2500],
  ['HR', 'sanitary_products', '2022-04-01', 1300],
  ['HR', 'admission_sports', '2022-04-01', 500],
  // Spain, Italy, France, Poland, Portugal
  ['ES', 'food', '2022-12-31', 400, true],
  ['ES', 'food', '2023-01-01', 0, true],
  ['ES', 'food', '2024-09-30', 0, true],
  ['ES', 'food', '2024-10-01', 200, true],
  ['ES', 'food', '2025-01-01', 400, true],
  ['ES', 'e_publications', '2020-04-22', 2100],
  ['ES', 'e_publications', '2020-04-23', 400],
  ['ES', 'sanitary_products', '2023-01-01', 400],
  ['ES', 'electricity', '2025-01-01', 2100, false],
  ['IT', 'natural_gas', '2021-10-01', 500],
  ['IT', 'natural_gas', '2023-12-31', 500],
  ['IT', 'sanitary_products', '2023-06-01', 500],
  ['IT', 'sanitary_products', '2024-06-01', 1000],
  ['FR', 'food', '2024-06-01', 550],
  ['FR', 'electricity', '2025-08-01', 2000, false],
  ['PL', 'food', '2023-06-01', 0, true],
  ['PL', 'electricity', '2021-12-31', 2300],
  ['PL', 'electricity', '2022-06-01', 500],
  ['PL', 'natural_gas', '2022-01-15', 800],
  ['PL', 'natural_gas', '2022-02-01', 0],
  ['PL', 'natural_gas', '2023-01-01', 2300],
  ['PT', 'food', '2023-06-01', 0, true],
  // Denmark: no reduced rate, newspapers zero-rated
  ['DK', 'books', '2024-01-01', 2500],
  ['DK', 'newspapers', '2024-01-01', 0, true],
  // Absent means absent: no invented rows before coverage or for unresearched classes
  ['CY', 'food', '2024-01-01', null],
  ['DE', 'standard', '2018-12-31', null],
];

describe('reduced-rate spot checks (independent)', () => {
  it.each(SPOT)(
    '%s %s on %s',
    (cc, cls, date, bps, conditional) => {
      const r = findRate(rates, cc, cls, date);
      if (bps === null) {
        expect(r).toBeUndefined();
        return;
      }
      expect(r, `${cc} ${cls} ${date}`).toBeDefined();
      expect(r!.rate_bps).toBe(bps);
      if (conditional !== undefined) expect(r!.conditional).toBe(conditional);
    },
  );
});

describe('validator catches planted mistakes', () => {
  const base = () => clone(rates);
  const row = (over: Partial<VatRateRow>): VatRateRow => ({
    tax_class_id: 'books',
    rate_bps: 700,
    valid_from: '2019-01-01',
    valid_to: null,
    rate_type: 'reduced',
    conditional: false,
    conditions: null,
    source_ids: ['tedb'],
    legal_ref: null,
    tedb_category: null,
    review_status: 'knowledge_unverified',
    ...over,
  });

  it('overlapping windows', () => {
    const all = base();
    const de = seedOf(all, 'DE');
    de.rates.push(row({ tax_class_id: 'plants_flowers', valid_from: '2019-01-01', valid_to: '2021-01-01' }));
    de.rates.push(row({ tax_class_id: 'plants_flowers', valid_from: '2020-06-01', valid_to: null }));
    const p = validateRateSeeds(classes, all);
    expect(p.some((x) => x.includes('DE/plants_flowers: overlapping'))).toBe(true);
  });

  it('an open window followed by another window overlaps', () => {
    const all = base();
    const de = seedOf(all, 'DE');
    de.rates.push(row({ tax_class_id: 'plants_flowers', valid_from: '2019-01-01', valid_to: null }));
    de.rates.push(row({ tax_class_id: 'plants_flowers', valid_from: '2024-01-01', valid_to: null }));
    expect(validateRateSeeds(classes, all).some((x) => x.includes('overlapping'))).toBe(true);
  });

  it('gap in standard coverage', () => {
    const all = base();
    const de = seedOf(all, 'DE');
    const first = de.rates.find((r) => r.tax_class_id === 'standard' && r.valid_from === '2019-01-01')!;
    first.valid_to = '2020-06-01'; // next window starts 2020-07-01
    const p = validateRateSeeds(classes, all);
    expect(p.some((x) => x.includes('DE/standard: coverage gap from 2020-06-01 to 2020-07-01'))).toBe(true);
  });

  it('standard coverage starting late, or ending', () => {
    const all = base();
    const fr = seedOf(all, 'FR');
    const std = fr.rates.find((r) => r.tax_class_id === 'standard')!;
    std.valid_from = '2019-02-01';
    std.valid_to = '2030-01-01';
    const p = validateRateSeeds(classes, all);
    expect(p.some((x) => x.includes('FR/standard: coverage gap from 2019-01-01'))).toBe(true);
    expect(p.some((x) => x.includes('FR/standard: coverage ends'))).toBe(true);
  });

  it('missing standard rate and missing country', () => {
    const all = base().filter((s) => s.country !== 'MT');
    const dk = seedOf(all, 'DK');
    dk.rates = dk.rates.filter((r) => r.tax_class_id !== 'standard');
    const p = validateRateSeeds(classes, all);
    expect(p).toContain('DK: no standard rate');
    expect(p).toContain('MT: no rate file for this Member State');
  });

  it('unknown class id', () => {
    const all = base();
    seedOf(all, 'AT').rates.push(row({ tax_class_id: 'space_tourism' }));
    expect(validateRateSeeds(classes, all).some((x) => x.includes('unknown tax class id "space_tourism"'))).toBe(true);
  });

  it('valid_to <= valid_from', () => {
    const all = base();
    seedOf(all, 'AT').rates.push(row({ tax_class_id: 'plants_flowers', valid_from: '2022-01-01', valid_to: '2022-01-01' }));
    expect(validateRateSeeds(classes, all).some((x) => x.includes('valid_to 2022-01-01 <= valid_from 2022-01-01'))).toBe(true);
  });

  it('undeclared source id', () => {
    const all = base();
    seedOf(all, 'AT').rates.push(row({ tax_class_id: 'plants_flowers', source_ids: ['nowhere'] }));
    expect(validateRateSeeds(classes, all).some((x) => x.includes('source id "nowhere" not declared'))).toBe(true);
  });

  it('non-integer and out-of-range bps', () => {
    const all = base();
    seedOf(all, 'AT').rates.push(row({ tax_class_id: 'plants_flowers', rate_bps: 5.5 }));
    seedOf(all, 'BE').rates.push(row({ tax_class_id: 'plants_flowers', rate_bps: 10001 }));
    seedOf(all, 'BG').rates.push(row({ tax_class_id: 'plants_flowers', rate_bps: -1 }));
    const p = validateRateSeeds(classes, all);
    expect(p.some((x) => x.startsWith('AT') && x.includes('not an integer'))).toBe(true);
    expect(p.some((x) => x.startsWith('BE') && x.includes('outside 0..10000'))).toBe(true);
    expect(p.some((x) => x.startsWith('BG') && x.includes('outside 0..10000'))).toBe(true);
  });

  it('exempt rows must be conditional, zero rows must be 0 bps', () => {
    const all = base();
    seedOf(all, 'AT').rates.push(row({ tax_class_id: 'medical_dental', rate_type: 'exempt', rate_bps: 0 }));
    seedOf(all, 'BE').rates.push(row({ tax_class_id: 'plants_flowers', rate_type: 'zero', rate_bps: 500 }));
    const p = validateRateSeeds(classes, all);
    expect(p.some((x) => x.startsWith('AT') && x.includes('exempt rows must be conditional'))).toBe(true);
    expect(p.some((x) => x.startsWith('BE') && x.includes('must have rate_bps 0'))).toBe(true);
  });

  it('a window without a source or without a review status', () => {
    const all = base();
    seedOf(all, 'AT').rates.push(row({ tax_class_id: 'plants_flowers', source_ids: [] }));
    seedOf(all, 'BE').rates.push(row({ tax_class_id: 'plants_flowers', review_status: undefined as unknown as VatRateRow['review_status'] }));
    const p = validateRateSeeds(classes, all);
    expect(p.some((x) => x.startsWith('AT') && x.includes('window has no source'))).toBe(true);
    expect(p.some((x) => x.startsWith('BE') && x.includes('no valid review_status'))).toBe(true);
  });

  it('a source_cited window whose sources have no consulted URL', () => {
    const all = base();
    const at = seedOf(all, 'AT');
    // tedb and the national law are declared `consulted: false` (named, not fetched)
    at.rates.push(row({ tax_class_id: 'plants_flowers', source_ids: ['tedb', 'at-ustg'], review_status: 'source_cited' }));
    const p = validateRateSeeds(classes, all);
    expect(p.some((x) => x.startsWith('AT') && x.includes('source_cited but no cited source with a URL'))).toBe(true);
    // a consulted source with a URL makes it acceptable
    const ok = base();
    const at2 = seedOf(ok, 'AT');
    at2.sources.push({ id: 'x-consulted', title: 't', url: 'https://example.org/page', as_of: '2026-01-01', accessed: '2026-11-24' });
    at2.rates.push(row({ tax_class_id: 'plants_flowers', source_ids: ['tedb', 'x-consulted'], review_status: 'source_cited' }));
    expect(validateRateSeeds(classes, ok).filter((x) => x.includes('source_cited but'))).toEqual([]);
  });

  it('conditional row without conditions', () => {
    const all = base();
    seedOf(all, 'AT').rates.push(row({ tax_class_id: 'plants_flowers', conditional: true, conditions: null }));
    expect(validateRateSeeds(classes, all).some((x) => x.includes('conditional row without conditions'))).toBe(true);
  });

  it('strict loader rejects unknown keys and bad dates', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vat-seeds-'));
    const ratesDir = join(dir, 'vat-rates');
    mkdirSync(ratesDir);
    const at = clone(seedOf(rates, 'AT')) as VatRateSeed & { extra?: string };
    at.extra = 'nope';
    writeFileSync(join(ratesDir, 'AT.json'), JSON.stringify(at));
    expect(() => loadVatRates(ratesDir)).toThrow(/invalid seed file/);

    const at2 = clone(seedOf(rates, 'AT'));
    at2.rates[0]!.valid_from = '2019-02-30';
    writeFileSync(join(ratesDir, 'AT.json'), JSON.stringify(at2));
    expect(() => loadVatRates(ratesDir)).toThrow(/not a real calendar date/);

    const classesDir = join(dir, 'tax-classes');
    mkdirSync(classesDir);
    const cls = clone(classes) as typeof classes & { surprise?: boolean };
    cls.surprise = true;
    writeFileSync(join(classesDir, 'tax-classes.json'), JSON.stringify(cls));
    expect(() => loadTaxClasses(classesDir)).toThrow(/invalid seed file/);
  });

  it('loader rejects a file whose name does not match its country', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vat-seeds-'));
    writeFileSync(join(dir, 'BE.json'), JSON.stringify(seedOf(rates, 'AT')));
    expect(() => loadVatRates(dir)).toThrow(/must be named AT.json/);
  });
});

describe('seedDigest', () => {
  it('is a stable sha256 hex independent of key order and country order', () => {
    const d = seedDigest(classes, rates);
    expect(d).toMatch(/^[0-9a-f]{64}$/);
    expect(seedDigest()).toBe(d);
    const reordered = clone(rates).reverse();
    const de = seedOf(reordered, 'DE');
    // rebuild an object with keys in a different order
    const r0 = de.rates[0]!;
    de.rates[0] = Object.fromEntries(Object.entries(r0).reverse()) as VatRateRow;
    expect(seedDigest(classes, reordered)).toBe(d);
  });

  it('changes when a rate changes', () => {
    const all = clone(rates);
    seedOf(all, 'DE').rates[0]!.rate_bps += 1;
    expect(seedDigest(classes, all)).not.toBe(seedDigest(classes, rates));
  });
});
