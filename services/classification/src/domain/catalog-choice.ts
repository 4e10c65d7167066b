import { invalidArgument } from '@vat/platform/rpc-errors';
import { isValidDate } from '@vat/platform/http-inputs';
import { isCatalogVersionShape, isScheme, normalizeCode, type Scheme } from './codes';

export function requireScheme(scheme: string): Scheme {
  if (!isScheme(scheme)) throw invalidArgument('invalid_scheme', 'scheme must be cn or cpa.');
  return scheme;
}

export function requireCode(scheme: Scheme, code: string): string {
  const normalized = normalizeCode(scheme, code);
  if (!normalized) {
    throw invalidArgument('invalid_code', `"${code.slice(0, 40)}" is not an exact ${scheme.toUpperCase()} code (${scheme === 'cn' ? 'CN: 2, 4, 6 or 8 digits, or the display form 0101 21 00' : 'CPA: dot-separated digit groups such as 01.11.11'}).`);
  }
  return normalized;
}

export function requireCatalogVersion(scheme: Scheme, version: string): string {
  if (!isCatalogVersionShape(scheme, version)) {
    throw invalidArgument('invalid_catalog_version', scheme === 'cn' ? 'catalog_version of a CN code is the edition year, e.g. 2022.' : 'catalog_version of a CPA code is the version, e.g. 2.1.');
  }
  return version;
}

export function requireDate(value: string, reason: string, field: string): string {
  if (!isValidDate(value)) throw invalidArgument(reason, `${field} must be a real date written YYYY-MM-DD.`);
  return value;
}

/** Whether an edition's legal interval [from, to) covers the date. */
export const covers = (e: { legalFrom: string; legalTo: string | null }, date: string) => e.legalFrom <= date && (e.legalTo === null || date < e.legalTo);
