import { createHash } from 'node:crypto';
import type pg from 'pg';
import { detectAndParseEcb } from '@vat/seeds/ecb';
import { ecbDaysOf, type EcbDay } from './ecb-days';
import { storeEcbImport, type EcbStoreResult } from '../repositories/ecb-rates';

type EcbImportResult = EcbStoreResult & {
  /** Distinct (currency, day) rates in the file. */
  total: number;
  firstDate: string | undefined;
  lastDate: string | undefined;
  /** Currencies in the file, sorted. */
  currencies: string[];
  digest: string;
};

/** The digest an imported file is recorded under. */
export function ecbFileDigest(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** A parsed, validated ECB file: its publication days and the digest it is recorded under. */
type ParsedEcbFile = { days: EcbDay[]; digest: string };

/** Parses and validates a whole ECB file (CSV or XML) before anything is written. */
export function parseEcbFile(fileName: string, text: string): ParsedEcbFile {
  return { days: ecbDaysOf(detectAndParseEcb(fileName, text)), digest: ecbFileDigest(text) };
}

/**
 * Imports an ECB file (CSV or XML, history or daily) into the calculation schema. Idempotent: the same file
 * again changes nothing, a newer file adds its days, a corrected rate replaces the stored one. The whole file is
 * parsed and validated before anything is written.
 */
export async function importEcbFile(pool: pg.Pool, fileName: string, text: string, onProgress?: (done: number, total: number) => void): Promise<EcbImportResult> {
  return storeEcbFile(pool, parseEcbFile(fileName, text), onProgress);
}

/** Stores a parsed file (see {@link importEcbFile}). */
export async function storeEcbFile(pool: pg.Pool, { days, digest }: ParsedEcbFile, onProgress?: (done: number, total: number) => void): Promise<EcbImportResult> {
  const currencies = new Set<string>();
  let total = 0;
  for (const d of days) {
    for (const c in d.rates) currencies.add(c);
    total += Object.keys(d.rates).length;
  }
  const lastDate = days.at(-1)?.date;
  const stored = await storeEcbImport(pool, days, { digest, version: lastDate ?? '', rowCount: total }, onProgress);
  return { ...stored, total, firstDate: days[0]?.date, lastDate, currencies: [...currencies].sort(), digest };
}
