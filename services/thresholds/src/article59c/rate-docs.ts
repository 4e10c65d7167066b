import { createHash } from 'node:crypto';
import type { SupplyEvent } from '@vat/gen/vat/ledger/v1/resources_pb';
import type { ExtraFactColumns } from '@vat/platform/supply-projection';
import type { RateEvidence } from './conversion';

/** An ECB rate evidence document as thresholds stores it once: named by the SHA-256 (hex) of its text. */
export type RateDoc = { digest: string; rateDate: string; text: string };

/** Digests of recently seen documents by their text (a few ECB days are in play at a time). */
const known = new Map<string, string>();
const KNOWN_MAX = 4096;
/** The document made for a decoded event's rates object (the batch's events are read twice: fact column, documents). */
const byRates = new WeakMap<object, RateDoc>();

/**
 * The stored form of an event's ECB evidence: its publication day and rates as JSON text, named by the SHA-256 of
 * `<rate date>\n<text>`. Events sharing a day's rates share one document (and one row of `article59c_rate_doc`);
 * the same rates sent in another key order make another document, which is harmless.
 */
export function rateDocOf(evidence: RateEvidence | null | undefined): RateDoc | null {
  if (!evidence) return null;
  // The fact's column and the documents stored for the batch ask for the same rates object: made once.
  const made = byRates.get(evidence.ratesPerEur);
  if (made?.rateDate === evidence.rateDate) return made;
  const text = JSON.stringify(evidence.ratesPerEur);
  const key = `${evidence.rateDate}\n${text}`;
  let digest = known.get(key);
  if (digest === undefined) {
    digest = createHash('sha256').update(key).digest('hex');
    if (known.size >= KNOWN_MAX) known.clear();
    known.set(key, digest);
  }
  const doc = { digest, rateDate: evidence.rateDate, text };
  byRates.set(evidence.ratesPerEur, doc);
  return doc;
}

/** The fact column naming an event's evidence document (`supply_fact.rate_doc`), written with the fact. */
export const RATE_DOC_COLUMN: ExtraFactColumns = {
  columns: [['rate_doc', 'text']],
  values: (e: SupplyEvent) => [rateDocOf(e.ecbRateEvidence)?.digest ?? null],
};
