/**
 * Pure validators for HTTP inputs (headers, path and query parameters, body fields).
 *
 * All functions accept `unknown` and never throw: a non-string is simply invalid.
 */

/** Earliest and latest calendar year accepted by `isValidDate` and `parseTransactionDate`. */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 9999;

const SOURCE_ID = /^[A-Za-z0-9_\-/]{1,100}$/;
const IDEMPOTENCY_KEY = /^[\x21-\x7E]{1,255}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

/** `X-Source-ID` / `source_key`: 1 to 100 characters of `A-Z a-z 0-9 _ - /`. */
export function isValidSourceId(s: unknown): boolean {
  return typeof s === 'string' && SOURCE_ID.test(s);
}

/** `Idempotency-Key`: 1 to 255 visible ASCII characters (0x21..0x7E; no space). */
export function isValidIdempotencyKey(s: unknown): boolean {
  return typeof s === 'string' && IDEMPOTENCY_KEY.test(s);
}

/**
 * UUID in the 8-4-4-4-12 hex form with the RFC 4122 variant (`8`, `9`, `a` or `b` in the
 * first digit of the fourth group) and any version 1..8 (RFC 4122 / RFC 9562). Upper- and
 * lower-case hex are accepted. The nil and max UUIDs are rejected (no valid version/variant).
 */
export function isUuid(s: unknown): boolean {
  return typeof s === 'string' && UUID.test(s);
}

const ROW_ID = /^[1-9][0-9]{0,17}$/;

/** A database row id as text: a positive integer of at most 18 digits (so it fits a bigint). */
export function isRowId(s: string): boolean {
  return ROW_ID.test(s);
}

function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysInMonth(y: number, m: number): number {
  return m === 2 ? (isLeapYear(y) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

function validCalendarDate(y: number, m: number, d: number): boolean {
  return y >= MIN_YEAR && y <= MAX_YEAR && isRealDate(y, m, d);
}

function isRealDate(y: number, m: number, d: number): boolean {
  return y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

/** Any real Gregorian date written `YYYY-MM-DD` (years 0001-9999); the calendar check for dates outside the 1900-9999 API range (reference data, fx). */
export function isCalendarDate(s: unknown): s is string {
  if (typeof s !== 'string') return false;
  const m = DATE_ONLY.exec(s);
  return m !== null && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/**
 * Strict `YYYY-MM-DD` (exactly 4-2-2 ASCII digits) naming an existing Gregorian calendar
 * date with a year in 1900..9999. Rejects e.g. `2023-02-29`, `2024-13-01`, `2024-1-05`.
 */
export function isValidDate(s: unknown): boolean {
  if (typeof s !== 'string') return false;
  const m = DATE_ONLY.exec(s);
  return m !== null && validCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

type TransactionDateParse =
  | { ok: true; instant: Date; iso: string; dateOnly: boolean }
  | { ok: false };

const INVALID: { ok: false } = Object.freeze({ ok: false as const });

function inYearRange(t: number): boolean {
  const y = new Date(t).getUTCFullYear();
  return y >= MIN_YEAR && y <= MAX_YEAR;
}

/**
 * Parses a `transaction_date`.
 *
 * Accepted forms:
 * - `YYYY-MM-DD`: resolves to midnight UTC of that date (`dateOnly: true`).
 * - RFC 3339 date-time `YYYY-MM-DDTHH:MM:SS[.F]{Z|+HH:MM|-HH:MM}` (`dateOnly: false`) with an
 *   upper-case `T` and `Z`, 1 to 9 fractional-second digits and an offset of at most 23:59
 *   (`-00:00` is read as UTC).
 *
 * `iso` is always the UTC instant as `YYYY-MM-DDTHH:MM:SS.sssZ` (`Date#toISOString`); fractional
 * digits beyond milliseconds are TRUNCATED (never rounded, so a value never moves into the next
 * second or day). `instant` is the same moment as a `Date`.
 *
 * Rejected: anything else, including impossible calendar dates (`2023-02-29`, `2024-13-01`),
 * hour 24, leap second `:60` (JavaScript time has no leap seconds, so it is refused rather than
 * silently folded into the next second), lower-case `t`/`z`, a space separator, a missing
 * offset, and years outside 1900..9999 in either the written date or the resulting UTC instant
 * (e.g. `9999-12-31T23:00:00-05:00` is rejected because it is in year 10000 UTC).
 */
export function parseTransactionDate(s: unknown): TransactionDateParse {
  if (typeof s !== 'string' || s.length > 40) return INVALID;

  const dateOnly = DATE_ONLY.exec(s);
  if (dateOnly) {
    const y = Number(dateOnly[1]);
    const mo = Number(dateOnly[2]);
    const d = Number(dateOnly[3]);
    if (!validCalendarDate(y, mo, d)) return INVALID;
    const instant = new Date(Date.UTC(y, mo - 1, d));
    return { ok: true, instant, iso: instant.toISOString(), dateOnly: true };
  }

  const m = DATE_TIME.exec(s);
  if (!m) return INVALID;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const h = Number(m[4]);
  const mi = Number(m[5]);
  const sec = Number(m[6]);
  if (!validCalendarDate(y, mo, d) || h > 23 || mi > 59 || sec > 59) return INVALID;
  const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  let offsetMinutes = 0;
  if (m[8] === undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return INVALID;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const t = Date.UTC(y, mo - 1, d, h, mi, sec, ms) - offsetMinutes * 60_000;
  if (!inYearRange(t)) return INVALID;
  const instant = new Date(t);
  return { ok: true, instant, iso: instant.toISOString(), dateOnly: false };
}
