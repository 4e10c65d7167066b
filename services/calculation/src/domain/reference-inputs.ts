import { isEuMemberState } from '@vat/platform/countries';
import { parseTransactionDate } from '@vat/platform/http-inputs';
import { invalidArgument } from '@vat/platform/rpc-errors';

/** `at` as a UTC date; RFC 3339 or YYYY-MM-DD, default now. */
export function resolveAt(at: string | undefined, now: Date): string {
  if (at === undefined) return now.toISOString().slice(0, 10);
  const parsed = parseTransactionDate(at);
  if (!parsed.ok) throw invalidArgument('invalid_at', '`at` must be an RFC 3339 timestamp or a YYYY-MM-DD date.');
  return parsed.iso.slice(0, 10);
}

/** An EU Member State code as this service writes them (GR for Greece); anything else is `code`. */
export function checkCountry(country: string | undefined, code = 'invalid_country'): void {
  if (country !== undefined && !isEuMemberState(country)) {
    throw invalidArgument(code, `"${shown(country)}" is not an EU Member State code (ISO 3166-1 alpha-2, GR for Greece).`);
  }
}

/** A caller's value quoted in an error detail, cut short. */
export function shown(v: string): string {
  return v.length > 40 ? `${v.slice(0, 40)}…` : v;
}
