/**
 * The EU-27 Member States as registrations name them, and the formats of the identifiers a
 * registration carries. Formats are checked, check digits are not (VIES is the authority on
 * whether a number exists; this service stores what the merchant was issued).
 *
 * VAT number formats: European Commission, VIES — "VAT number validation" FAQ, table of VAT
 * number structures per Member State (ec.europa.eu/taxation_customs/vies/#/faq), as also
 * documented in the Commission's "VAT identification numbers" overview. IOSS (`IMxxxyyyyyyz`),
 * intermediary (`INxxxyyyyyyz`) and non-Union OSS (`EUxxxyyyyyz`) numbers: Commission, Explanatory
 * notes on the VAT e-commerce rules (2020), and the OSS/IOSS guides, where `xxx` is the ISO 3166-1
 * numeric code of the Member State of identification.
 */
export type MemberState = {
  /** ISO 3166-1 alpha-2 (the API's country convention; Greece is GR). */
  code: string;
  /** Prefix of its VAT numbers (EL for Greece). */
  vatPrefix: string;
  /** ISO 3166-1 numeric, as embedded in IOSS, intermediary and non-Union OSS numbers. */
  numeric: string;
  /** The part of a VAT number after the prefix. */
  vatBody: RegExp;
  /** The format in words, for error details. */
  vatFormat: string;
};

const ms = (code: string, vatPrefix: string, numeric: string, vatBody: RegExp, vatFormat: string): MemberState => ({ code, vatPrefix, numeric, vatBody, vatFormat });

export const MEMBER_STATES: readonly MemberState[] = [
  ms('AT', 'AT', '040', /^U\d{8}$/, 'ATU + 8 digits'),
  ms('BE', 'BE', '056', /^[01]\d{9}$/, 'BE + 10 digits starting with 0 or 1'),
  ms('BG', 'BG', '100', /^\d{9,10}$/, 'BG + 9 or 10 digits'),
  ms('CY', 'CY', '196', /^\d{8}[A-Z]$/, 'CY + 8 digits + 1 letter'),
  ms('CZ', 'CZ', '203', /^\d{8,10}$/, 'CZ + 8, 9 or 10 digits'),
  ms('DE', 'DE', '276', /^\d{9}$/, 'DE + 9 digits'),
  ms('DK', 'DK', '208', /^\d{8}$/, 'DK + 8 digits'),
  ms('EE', 'EE', '233', /^\d{9}$/, 'EE + 9 digits'),
  ms('ES', 'ES', '724', /^(?!\d{9}$)[A-Z0-9]\d{7}[A-Z0-9]$/, 'ES + 9 characters: a letter or digit, 7 digits, a letter or digit (not all digits)'),
  ms('FI', 'FI', '246', /^\d{8}$/, 'FI + 8 digits'),
  ms('FR', 'FR', '250', /^[0-9A-Z]{2}\d{9}$/, 'FR + 2 letters or digits + 9 digits'),
  ms('GR', 'EL', '300', /^\d{9}$/, 'EL + 9 digits'),
  ms('HR', 'HR', '191', /^\d{11}$/, 'HR + 11 digits'),
  ms('HU', 'HU', '348', /^\d{8}$/, 'HU + 8 digits'),
  ms('IE', 'IE', '372', /^(\d{7}[A-Z]{1,2}|\d[A-Z+*]\d{5}[A-Z])$/, 'IE + 7 digits + 1 or 2 letters (or the older digit, letter/+/*, 5 digits, letter)'),
  ms('IT', 'IT', '380', /^\d{11}$/, 'IT + 11 digits'),
  ms('LT', 'LT', '440', /^(\d{9}|\d{12})$/, 'LT + 9 or 12 digits'),
  ms('LU', 'LU', '442', /^\d{8}$/, 'LU + 8 digits'),
  ms('LV', 'LV', '428', /^\d{11}$/, 'LV + 11 digits'),
  ms('MT', 'MT', '470', /^\d{8}$/, 'MT + 8 digits'),
  ms('NL', 'NL', '528', /^\d{9}B\d{2}$/, 'NL + 9 digits + B + 2 digits'),
  ms('PL', 'PL', '616', /^\d{10}$/, 'PL + 10 digits'),
  ms('PT', 'PT', '620', /^\d{9}$/, 'PT + 9 digits'),
  ms('RO', 'RO', '642', /^[1-9]\d{1,9}$/, 'RO + 2 to 10 digits (no leading zero)'),
  ms('SE', 'SE', '752', /^\d{10}01$/, 'SE + 12 digits ending in 01'),
  ms('SI', 'SI', '705', /^\d{8}$/, 'SI + 8 digits'),
  ms('SK', 'SK', '703', /^\d{10}$/, 'SK + 10 digits'),
];

const BY_CODE = new Map(MEMBER_STATES.map((m) => [m.code, m]));

export function memberState(code: string): MemberState | undefined {
  return BY_CODE.get(code);
}

/** Longest identifier accepted before any format check (the longest real one is 14 characters). */
export const MAX_IDENTIFIER_LENGTH = 40;

/** What callers may type around a number: spaces, dots and hyphens are dropped, letters upper-cased. */
export function normalizeIdentifier(raw: string): string {
  return raw.replace(/[ .-]/g, '').toUpperCase();
}

export type SchemeType = 'union_oss' | 'non_union_oss' | 'ioss';

type IdentifierCheck = { ok: true; value: string } | { ok: false; expected: string };

function check(value: string, pattern: RegExp, expected: string): IdentifierCheck {
  return value.length <= MAX_IDENTIFIER_LENGTH && pattern.test(value) ? { ok: true, value } : { ok: false, expected };
}

/**
 * The registration's own number for its scheme and Member State of identification: Union OSS
 * uses the VAT number issued there, non-Union OSS `EU` + 9 digits, IOSS `IM` + 10 digits (both
 * embedding that Member State's numeric code). Never throws.
 */
export function checkRegistrationNumber(scheme: SchemeType, m: MemberState, raw: string): IdentifierCheck {
  const value = normalizeIdentifier(raw);
  if (scheme === 'ioss') return check(value, new RegExp(`^IM${m.numeric}\\d{7}$`), `an IOSS number issued by ${m.code}: IM${m.numeric} + 7 digits (IM + 10 digits)`);
  if (scheme === 'non_union_oss') return check(value, new RegExp(`^EU${m.numeric}\\d{6}$`), `a non-Union OSS number issued by ${m.code}: EU${m.numeric} + 6 digits (EU + 9 digits)`);
  const body = value.startsWith(m.vatPrefix) ? value.slice(m.vatPrefix.length) : undefined;
  const ok = body !== undefined && value.length <= MAX_IDENTIFIER_LENGTH && m.vatBody.test(body);
  return ok ? { ok: true, value } : { ok: false, expected: `a VAT number of ${m.code}: ${m.vatFormat}` };
}

/** An IOSS intermediary's number, `IN` + 10 digits, issued by the same Member State of identification. Never throws. */
export function checkIntermediaryNumber(m: MemberState, raw: string): IdentifierCheck {
  return check(normalizeIdentifier(raw), new RegExp(`^IN${m.numeric}\\d{7}$`), `an intermediary number issued by ${m.code}: IN${m.numeric} + 7 digits (IN + 10 digits)`);
}

/**
 * The only form of an identifier that leaves the service: its 2-character prefix (country, IM,
 * IN or EU), asterisks, and at most the last 4 characters, never more than half of the rest
 * (`DE*****6789`). Same length as the identifier. Never throws.
 */
export function maskIdentifier(value: string): string {
  const chars = [...value];
  if (chars.length <= 2) return '*'.repeat(chars.length);
  const rest = chars.length - 2;
  const visible = Math.min(4, Math.floor(rest / 2));
  return chars.slice(0, 2).join('') + '*'.repeat(rest - visible) + chars.slice(chars.length - visible).join('');
}
