import type { SupplyEventInput } from '@vat/gen/vat/ledger/v1/resources_pb';
import { isUuid } from '@vat/platform/http-inputs';
import type { RuleViolation } from './supply-event-rules';

/** What a supply event takes from the calculation it links (the ledger's projection of `CalculationRecorded`). */
export type LinkedCalculation = { id: string; country: string; currency: string; netAmountMinor: bigint; vatAmountMinor: bigint; vatRateBps: number };

const NEGATIVE = new Set(['refund', 'cancellation', 'credit_note']);

/**
 * Commits a v1 calculation into an event: the calculation (the caller's own) supplies country,
 * currency, amounts and rate where the event omits them, and must agree where it states them.
 * Amounts carry the event's sign: a refund, cancellation or credit note of a calculation is its
 * negation. Returns the completed input, or what disagrees.
 */
export function linkCalculation(input: SupplyEventInput, calculations: ReadonlyMap<string, LinkedCalculation>): { input: SupplyEventInput; violations: RuleViolation[] } {
  if (input.calculationId === undefined || !isUuid(input.calculationId)) return { input, violations: [] };
  const calc = calculations.get(input.calculationId.toLowerCase());
  if (!calc) return { input, violations: [{ field: 'calculation_id', error: 'calculation_not_found', detail: 'No calculation of this account has this id.' }] };
  const sign = NEGATIVE.has(input.eventType ?? '') ? -1n : 1n;
  const expected = {
    countryOfConsumption: calc.country,
    currency: calc.currency,
    netAmountMinor: sign * calc.netAmountMinor,
    vatAmountMinor: sign * calc.vatAmountMinor,
    vatRateBps: BigInt(calc.vatRateBps),
  };
  const names: Record<keyof typeof expected, string> = { countryOfConsumption: 'country_of_consumption', currency: 'currency', netAmountMinor: 'net_amount_minor', vatAmountMinor: 'vat_amount_minor', vatRateBps: 'vat_rate_bps' };
  const violations: RuleViolation[] = [];
  const completed = { ...input };
  for (const key of Object.keys(expected) as (keyof typeof expected)[]) {
    const stated = input[key];
    if (stated === undefined) (completed as Record<string, unknown>)[key] = expected[key];
    else if (stated !== expected[key]) violations.push({ field: names[key], error: 'calculation_mismatch', detail: `${names[key]} differs from calculation ${calc.id} (${String(expected[key])}).` });
  }
  return { input: completed, violations };
}
