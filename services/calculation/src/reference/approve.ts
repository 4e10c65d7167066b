import type { MikroORM } from '@mikro-orm/postgresql';
import { ReferenceRelease } from '../entities/index';

/**
 * Records a named reviewer's approval of the current VAT rate release. From then on, calculations on
 * its source-cited windows carry evidence status `verified`; earlier calculations keep what they sealed.
 */
export async function approveCurrentRateRelease(orm: MikroORM, reviewer: string, now: Date) {
  if (!reviewer.trim()) throw new Error('a reviewer name is required');
  const em = orm.em.fork();
  const [latest] = await em.find(ReferenceRelease, { kind: 'vat_rates' }, { orderBy: { id: 'desc' }, limit: 1 });
  if (!latest) throw new Error('no VAT rate release is loaded; start the service once first');
  if (!latest.approvedAt) {
    latest.approvedAt = now;
    latest.approvedBy = reviewer.trim();
    await em.flush();
  }
  return { kind: latest.kind, digest: latest.digest, version: latest.version, approved_at: latest.approvedAt.toISOString(), approved_by: latest.approvedBy };
}
