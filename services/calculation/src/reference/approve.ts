import type pg from 'pg';
import { approveLatestRateRelease } from '../repositories/rate-releases';

/**
 * Records a named reviewer's approval of the current VAT rate release. From then on, calculations on
 * its source-cited windows carry evidence status `verified`; earlier calculations keep what they sealed.
 */
export async function approveCurrentRateRelease(pool: pg.Pool, reviewer: string, now: Date) {
  if (!reviewer.trim()) throw new Error('a reviewer name is required');
  const latest = await approveLatestRateRelease(pool, reviewer.trim(), now);
  if (!latest) throw new Error('no VAT rate release is loaded; start the service once first');
  return { kind: 'vat_rates', digest: latest.digest, version: latest.version, approved_at: latest.approvedAt!.toISOString(), approved_by: latest.approvedBy };
}
