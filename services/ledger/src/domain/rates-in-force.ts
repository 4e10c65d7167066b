import type { ProjectedRateInForce as RateInForce } from '@vat/platform/reference-projection';
import type { NormalizedSupplyEvent, RuleViolation } from './supply-event-rules';

/**
 * The supply-event rate rule: a committed event carries a rate in force in its Member State of
 * consumption (or in the region it names) on its tax point, with that rate's kind as rate_category
 * (Arts. 96-99 and 105 of Directive 2006/112/EC). The dated rates are the calculation service's
 * (its `RateReleasePublished`, as the ledger projects it); this module only decides. A refund, cancellation, credit note or adjustment
 * carries the rate of the supply it corrects (Art. 90).
 */

export type RateKind = { rateBps: number; rateType: string };
/** What the ledger knows of a corrected original: its rate as committed. */
export type OriginalRate = { eventId: string; vatRateBps: number; rateCategory: string; region: string | null; occurredAt: string };

const endOf = (d: string | undefined) => d ?? '9999-12-31';
const pct = (bps: number) => `${(bps / 100).toFixed(2)} %`;
const listed = (rates: RateKind[]) => rates.map((r) => `${r.rateBps} (${r.rateType})`).join(', ');

/** Standard first, then by rate descending: how a rate list reads in a detail text. */
function ordered(rates: RateKind[]): RateKind[] {
  const seen = new Map<string, RateKind>();
  for (const r of rates) seen.set(`${r.rateBps}|${r.rateType}`, { rateBps: r.rateBps, rateType: r.rateType });
  return [...seen.values()].sort((a, b) => Number(b.rateType === 'standard') - Number(a.rateType === 'standard') || b.rateBps - a.rateBps || a.rateType.localeCompare(b.rateType));
}

/** The rates in force per country and region, by day. */
export class RateTable {
  constructor(private readonly rates: readonly RateInForce[]) {}

  /** Regions of `country` with rates of their own. */
  regions(country: string): string[] {
    return [...new Set(this.rates.filter((r) => r.country === country && r.region !== undefined).map((r) => r.region!))].sort();
  }

  /**
   * The rates in force on `day` in `country`, or in `region` (its own rates; zero and exempt are
   * the State's). `upTo`: every rate in force on any day up to `day` instead.
   */
  on(country: string, region: string | null, day: string, upTo = false): RateKind[] {
    // A batch asks for few distinct (country, region, day) triples: each answered once per table.
    const key = `${country}|${region ?? ''}|${day}|${upTo ? 1 : 0}`;
    let answer = this.answers.get(key);
    if (answer === undefined) this.answers.set(key, (answer = this.compute(country, region, day, upTo)));
    return answer;
  }

  private readonly answers = new Map<string, RateKind[]>();

  private compute(country: string, region: string | null, day: string, upTo: boolean): RateKind[] {
    const inForce = (r: RateInForce) => r.validFrom <= day && (upTo || day < endOf(r.validTo));
    const own = this.rates.filter((r) => r.country === country && (r.region ?? null) === region && inForce(r));
    const nil = region === null ? [] : this.rates.filter((r) => r.country === country && r.region === undefined && r.rateBps === 0 && inForce(r));
    return ordered([...own, ...nil]);
  }

  /** The first day of the country's rate data (undefined: none). */
  firstDay(country: string): string | undefined {
    return this.rates.filter((r) => r.country === country).map((r) => r.validFrom).sort()[0];
  }
}

/** The event's rate violations against the table (and its original's rate when the ledger holds it). */
export function rateViolations(e: NormalizedSupplyEvent, table: RateTable, original: OriginalRate | undefined): RuleViolation[] {
  const country = e.countryOfConsumption;
  const day = e.occurredAt.slice(0, 10);
  const where = e.region === null ? country : `${e.region} (${country})`;
  if (e.region !== null && !table.regions(country).includes(e.region)) {
    const known = table.regions(country);
    return [{ field: 'region', error: 'invalid_region', detail: `${e.region} has no VAT rates of its own in the rate data; ${known.length ? `regions of ${country} with their own rates: ${known.join(', ')}` : `${country} has none`} (omit region for the general territory).` }];
  }
  if (original && e.eventType !== 'sale') {
    if (original.vatRateBps !== e.vatRateBps || original.region !== e.region) {
      const theirs = `${original.vatRateBps}${original.region ? ` in ${original.region}` : ''}`;
      return [{ field: 'vat_rate_bps', error: 'vat_rate_not_in_force', detail: `A ${e.eventType.replace('_', ' ')} carries the rate of the supply it corrects: ${original.eventId} has vat_rate_bps ${theirs}, this event ${e.vatRateBps}${e.region ? ` in ${e.region}` : ''}.` }];
    }
    if (original.rateCategory !== e.rateCategory) {
      return [{ field: 'rate_category', error: 'rate_category_mismatch', detail: `A ${e.eventType.replace('_', ' ')} carries the rate of the supply it corrects: ${original.eventId} has rate_category ${original.rateCategory}.` }];
    }
    return [];
  }
  // A correction whose original the ledger does not hold may carry any rate in force up to its own tax point.
  const loose = e.eventType !== 'sale';
  const rates = table.on(country, e.region, day, loose);
  if (!rates.length) {
    const first = table.firstDay(country);
    return [{ field: 'vat_rate_bps', error: 'vat_rate_not_in_force', detail: `The rate data has no VAT rates of ${where} on ${day}${first ? ` (it starts on ${first})` : ''}.` }];
  }
  const same = rates.filter((r) => r.rateBps === e.vatRateBps);
  if (!same.length) {
    const when = loose ? `up to ${day}` : `on ${day}`;
    return [{ field: 'vat_rate_bps', error: 'vat_rate_not_in_force', detail: `${pct(e.vatRateBps)} (vat_rate_bps ${e.vatRateBps}) is not a VAT rate in force in ${where} ${when}; the rates in force: ${listed(rates)}.` }];
  }
  if (!same.some((r) => r.rateType === e.rateCategory)) {
    return [{ field: 'rate_category', error: 'rate_category_mismatch', detail: `vat_rate_bps ${e.vatRateBps} in ${where} on ${day} is ${same.map((r) => r.rateType).join(' or ')}, not ${e.rateCategory}; the rates in force: ${listed(rates)}.` }];
  }
  return [];
}
