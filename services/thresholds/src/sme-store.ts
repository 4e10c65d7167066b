import type { MikroORM } from '@mikro-orm/postgresql';
import { digestOf } from '@vat/platform/canonical-json';
import { loadSmeThresholds, parseSmeDocument, type SmeThresholdRow } from './sme/data';
import { SmeThresholdRelease } from './entities/index';

/** Loads the shipped SME data into the service schema once per content digest (idempotent). */
export async function seedSmeThresholds(orm: MikroORM, now: Date): Promise<string> {
  const doc = loadSmeThresholds();
  const digest = digestOf(doc);
  const em = orm.em.fork();
  const existing = await em.findOne(SmeThresholdRelease, { digest });
  if (!existing) {
    em.create(SmeThresholdRelease, { digest, document: doc, rowCount: doc.rows.length, loadedAt: now });
    await em.flush();
  }
  return digest;
}

/** Serves the most recently loaded release, parsed once and cached by digest. */
export class SmeThresholdStore {
  private cached: { digest: string; rows: SmeThresholdRow[] } | undefined;
  constructor(private readonly orm: MikroORM) {}

  async rows(): Promise<SmeThresholdRow[]> {
    const em = this.orm.em.fork();
    const [latest] = await em.find(SmeThresholdRelease, {}, { orderBy: { loadedAt: 'desc' }, limit: 1, fields: ['digest', 'loadedAt'] });
    if (!latest) throw new Error('no SME threshold release loaded');
    if (this.cached?.digest === latest.digest) return this.cached.rows;
    const full = await em.findOneOrFail(SmeThresholdRelease, { digest: latest.digest });
    const parsed = parseSmeDocument(full.document);
    if (!parsed.ok) throw new Error('stored SME threshold release does not validate');
    this.cached = { digest: latest.digest, rows: parsed.document.rows };
    return this.cached.rows;
  }
}
