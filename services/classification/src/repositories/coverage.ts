import type pg from 'pg';
import { insertRows, type Queryable } from '@vat/platform/sql';
import { pgTimestamp } from '@vat/platform/sql';
import type { CoverageRuleInput } from '../domain/coverage-manifest';

const MANIFEST = '"classification".coverage_manifest';
const RULE = '"classification".coverage_rule';

export type ManifestRecord = {
  id: bigint;
  name: string;
  version: number;
  status: 'under_review' | 'published';
  fileName: string;
  fileSha256: string;
  digest: string;
  ruleCount: number;
  importedBy: string;
  importedAt: Date;
  publishedBy: string | null;
  publishedAt: Date | null;
};

const COLUMNS = 'id, name, version, status, file_name, file_sha256, digest, rule_count, imported_by, imported_at, published_by, published_at';

function manifest(r: Record<string, any>): ManifestRecord {
  return {
    id: BigInt(r.id),
    name: r.name,
    version: r.version,
    status: r.status,
    fileName: r.file_name,
    fileSha256: r.file_sha256,
    digest: r.digest,
    ruleCount: r.rule_count,
    importedBy: r.imported_by,
    importedAt: pgTimestamp(r.imported_at),
    publishedBy: r.published_by,
    publishedAt: r.published_at === null ? null : pgTimestamp(r.published_at),
  };
}

function rule(r: Record<string, any>): CoverageRuleInput {
  return {
    ruleId: r.rule_id,
    jurisdiction: r.jurisdiction,
    scheme: r.scheme,
    catalogVersion: r.catalog_version,
    code: r.code,
    coverage: r.coverage,
    legalFrom: r.legal_from,
    legalTo: r.legal_to,
    taxClassId: r.tax_class_id,
    supplyKind: r.supply_kind,
    status: r.status,
    legalReference: r.legal_reference,
  };
}

const RULE_SELECT = `rule_id, jurisdiction, scheme, catalog_version, code, coverage, legal_from::text as legal_from, legal_to::text as legal_to, tax_class_id, supply_kind, status, legal_reference`;

/** Every statement on coverage manifests and their rules. */
export class CoverageRepository {
  constructor(private readonly pool: pg.Pool) {}

  async insertCandidate(db: Queryable, m: { name: string; fileName: string; fileSha256: string; rawFile: Uint8Array; digest: string; importedBy: string; importedAt: Date }, rules: readonly CoverageRuleInput[]): Promise<bigint> {
    await db.query(`lock table ${MANIFEST} in share row exclusive mode`);
    const r = await db.query(
      `insert into ${MANIFEST} (name, version, status, file_name, file_sha256, raw_file, digest, rule_count, imported_by, imported_at)
       select $1::text, coalesce(max(version), 0) + 1, 'under_review', $2, $3, $4, $5, $6, $7, $8 from ${MANIFEST} where name = $1::text returning id`,
      [m.name, m.fileName, m.fileSha256, Buffer.from(m.rawFile), m.digest, rules.length, m.importedBy, m.importedAt],
    );
    const id = BigInt(r.rows[0].id);
    await insertRows(
      db,
      RULE,
      { manifest_id: 'bigint', rule_id: 'text', jurisdiction: 'text', scheme: 'text', catalog_version: 'text', code: 'text', coverage: 'text', legal_from: 'date', legal_to: 'date', tax_class_id: 'text', supply_kind: 'text', status: 'text', legal_reference: 'text' },
      rules.map((x) => ({ manifest_id: id.toString(), rule_id: x.ruleId, jurisdiction: x.jurisdiction, scheme: x.scheme, catalog_version: x.catalogVersion, code: x.code, coverage: x.coverage, legal_from: x.legalFrom, legal_to: x.legalTo, tax_class_id: x.taxClassId, supply_kind: x.supplyKind, status: x.status, legal_reference: x.legalReference })),
    );
    return id;
  }

  async byId(id: bigint): Promise<ManifestRecord | undefined> {
    const r = await this.pool.query(`select ${COLUMNS} from ${MANIFEST} where id = $1`, [id.toString()]);
    return r.rows[0] ? manifest(r.rows[0]) : undefined;
  }

  async rawFile(id: bigint): Promise<Buffer> {
    return (await this.pool.query(`select raw_file from ${MANIFEST} where id = $1`, [id.toString()])).rows[0].raw_file;
  }

  async list(): Promise<ManifestRecord[]> {
    return (await this.pool.query(`select ${COLUMNS} from ${MANIFEST} order by name, version`)).rows.map(manifest);
  }

  /** The served manifest: the newest published version of the name. */
  async published(name: string): Promise<ManifestRecord | undefined> {
    const r = await this.pool.query(`select ${COLUMNS} from ${MANIFEST} where name = $1 and status = 'published' order by version desc limit 1`, [name]);
    return r.rows[0] ? manifest(r.rows[0]) : undefined;
  }

  async rules(manifestId: bigint): Promise<CoverageRuleInput[]> {
    return (await this.pool.query(`select ${RULE_SELECT} from ${RULE} where manifest_id = $1 order by rule_id`, [manifestId.toString()])).rows.map(rule);
  }

  /** Rules of a manifest for any of the codes (one edition), in force on the legal date. */
  async rulesFor(manifestId: bigint, scheme: string, catalogVersion: string, codes: readonly string[], legalDate: string): Promise<CoverageRuleInput[]> {
    const r = await this.pool.query(
      `select ${RULE_SELECT} from ${RULE} where manifest_id = $1 and scheme = $2 and catalog_version = $3 and code = any($4::text[])
         and legal_from <= $5::date and (legal_to is null or legal_to > $5::date) order by rule_id`,
      [manifestId.toString(), scheme, catalogVersion, codes, legalDate],
    );
    return r.rows.map(rule);
  }

  async publish(db: Queryable, id: bigint, by: string, at: Date): Promise<boolean> {
    const r = await db.query(`update ${MANIFEST} set status = 'published', published_by = $2, published_at = $3 where id = $1 and status = 'under_review'`, [id.toString(), by, at]);
    return r.rowCount === 1;
  }
}
