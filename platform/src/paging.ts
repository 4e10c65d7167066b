import { invalidArgument } from './rpc-errors';

/** A page size from a request: absent means the default; anything outside 1..max is `invalid_limit`. */
export function pageLimit(limit: number | undefined, max: number, fallback: number): number {
  if (limit === undefined) return fallback;
  if (!Number.isInteger(limit) || limit < 1 || limit > max) throw invalidArgument('invalid_limit', `limit must be an integer from 1 to ${max}.`);
  return limit;
}
