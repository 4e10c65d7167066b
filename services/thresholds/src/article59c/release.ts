import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { EU_MEMBER_STATES, isEuMemberState } from '@vat/platform/countries';

/**
 * Strict loader and validator for seeds/article59c-thresholds/article59c-thresholds.json: a complete EU-27
 * snapshot of the Article 59c threshold in each State's statutory currency (minor units, never converted).
 */
const MemberStateRow = z
  .object({
    country: z.string().regex(/^[A-Z]{2}$/),
    currency: z.string().regex(/^[A-Z]{3}$/).nullable(),
    currency_scale: z.number().int().min(0).max(4).nullable(),
    threshold_minor: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullable(),
    review_status: z.enum(['directive_amount', 'source_cited', 'national_amount_not_found']),
    source_ids: z.array(z.string().min(1)),
    note: z.string().optional(),
  })
  .strict()
  .refine((r) => (r.review_status === 'national_amount_not_found') === (r.threshold_minor === null), 'threshold_minor is null exactly when the amount was not found')
  .refine((r) => (r.threshold_minor === null) === (r.currency === null && r.currency_scale === null), 'a threshold has a currency and scale, an unavailable one neither')
  .refine((r) => r.review_status === 'national_amount_not_found' || r.source_ids.length > 0, 'a threshold cites at least one source');

const ReleaseDocument = z
  .object({
    release_version: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,79}$/),
    as_of: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    legal_basis: z.string().min(1),
    sources: z.array(z.object({ id: z.string().min(1), title: z.string().min(1), url: z.string().url(), as_of: z.string() }).strict()).min(1),
    member_states: z.array(MemberStateRow),
  })
  .strict();

type ReleaseDocument = z.infer<typeof ReleaseDocument>;
type ThresholdRow = { currency: string; amountMinor: bigint; scale: number };
export type ThresholdRelease = { version: string; document: ReleaseDocument; thresholds: Map<string, ThresholdRow> };

export class ReleaseRejected extends Error {}

/** Validates a release; a release that lacks, repeats or adds a Member State is refused (nothing is stored). */
export function parseRelease(raw: unknown): ThresholdRelease {
  const parsed = ReleaseDocument.safeParse(raw);
  if (!parsed.success) throw new ReleaseRejected(`invalid Article 59c release: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const doc = parsed.data;
  const seen = new Set<string>();
  const sourceIds = new Set(doc.sources.map((s) => s.id));
  for (const row of doc.member_states) {
    if (!isEuMemberState(row.country)) throw new ReleaseRejected(`invalid Article 59c release: ${row.country} is not an EU Member State`);
    if (seen.has(row.country)) throw new ReleaseRejected(`invalid Article 59c release: ${row.country} is listed twice`);
    seen.add(row.country);
    for (const id of row.source_ids) if (!sourceIds.has(id)) throw new ReleaseRejected(`invalid Article 59c release: ${row.country} cites unknown source ${id}`);
  }
  const missing = EU_MEMBER_STATES.filter((c) => !seen.has(c));
  if (missing.length > 0) throw new ReleaseRejected(`incomplete Article 59c release: missing ${missing.join(', ')} (a release must be a complete EU-27 snapshot)`);
  const thresholds = new Map<string, ThresholdRow>();
  for (const r of doc.member_states) {
    if (r.threshold_minor !== null) thresholds.set(r.country, { currency: r.currency!, amountMinor: BigInt(r.threshold_minor), scale: r.currency_scale! });
  }
  return { version: doc.release_version, document: doc, thresholds };
}

export const RELEASE_URL = new URL('../../../../seeds/article59c-thresholds/article59c-thresholds.json', import.meta.url);

export function loadShippedRelease(url: URL = RELEASE_URL): ThresholdRelease {
  return parseRelease(JSON.parse(readFileSync(url, 'utf8')));
}
