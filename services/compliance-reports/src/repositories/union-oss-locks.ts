import type pg from 'pg';
import { quarterInstants } from '@vat/platform/quarters';
import { insertStatement, pgTimestamp } from '@vat/platform/sql';
import { inTransaction } from '@vat/platform/transaction';
import { insertSealedBasis, type SealedBasis } from './union-oss-sealed-events';

const PERIOD = '"compliance_reports".union_oss_locked_period';
const EXPORT = '"compliance_reports".union_oss_export';

export type LockedPeriodRecord = {
  id: bigint;
  periodKey: string;
  registrationId: bigint;
  memberStateIdentification: string;
  returnCurrency: string;
  ledgerPosition: bigint;
  status: 'locked' | 'filed';
  filingStatus: string;
  filingStatusDetail: string;
  nilReturnEligible: boolean;
  totalSourceEventCount: bigint;
  includedSourceEventCount: bigint;
  excludedSourceEventCount: bigint;
  warningCount: number;
  jurisdictionCount: number;
  lockedAt: Date;
  lockedByApiKeyId: bigint;
  filedAt: Date | null;
  filedByApiKeyId: bigint | null;
  submissionReference: string | null;
  filedOn: string | null;
  filingNote: string | null;
};

type NewLockedPeriod = Omit<LockedPeriodRecord, 'id' | 'status' | 'filedAt' | 'filedByApiKeyId' | 'submissionReference' | 'filedOn' | 'filingNote'>;

/** What the filer says about the submission (issue 21), all optional. */
export type FilingRecord = { submissionReference: string | null; filedOn: string | null; note: string | null };

export type ExportMeta = {
  id: string;
  lockedPeriodId: bigint;
  periodKey: string;
  exportKind: string;
  format: string;
  mediaType: string;
  filename: string;
  sha256: string;
  byteSize: number;
  createdAt: Date;
};

export type NewArtifact = Omit<ExportMeta, 'lockedPeriodId' | 'periodKey' | 'createdAt' | 'byteSize'> & { content: Buffer };

type PeriodRow = Record<string, unknown>;

function periodOf(r: PeriodRow): LockedPeriodRecord {
  return {
    id: BigInt(r.id as string),
    periodKey: r.period_key as string,
    registrationId: BigInt(r.registration_id as string),
    memberStateIdentification: r.member_state_identification as string,
    returnCurrency: r.return_currency as string,
    ledgerPosition: BigInt(r.ledger_position as string),
    status: r.status as 'locked' | 'filed',
    filingStatus: r.filing_status as string,
    filingStatusDetail: r.filing_status_detail as string,
    nilReturnEligible: r.nil_return_eligible as boolean,
    totalSourceEventCount: BigInt(r.total_source_event_count as string),
    includedSourceEventCount: BigInt(r.included_source_event_count as string),
    excludedSourceEventCount: BigInt(r.excluded_source_event_count as string),
    warningCount: r.warning_count as number,
    jurisdictionCount: r.jurisdiction_count as number,
    lockedAt: pgTimestamp(r.locked_at),
    lockedByApiKeyId: BigInt(r.locked_by_api_key_id as string),
    filedAt: r.filed_at === null ? null : pgTimestamp(r.filed_at),
    filedByApiKeyId: r.filed_by_api_key_id === null ? null : BigInt(r.filed_by_api_key_id as string),
    submissionReference: (r.submission_reference as string | null) ?? null,
    filedOn: (r.filed_on as string | null) ?? null,
    filingNote: (r.filing_note as string | null) ?? null,
  };
}

function exportOf(r: PeriodRow): ExportMeta {
  return {
    id: r.id as string,
    lockedPeriodId: BigInt(r.locked_period_id as string),
    periodKey: r.period_key as string,
    exportKind: r.export_kind as string,
    format: r.format as string,
    mediaType: r.media_type as string,
    filename: r.filename as string,
    sha256: r.sha256 as string,
    byteSize: r.byte_size as number,
    createdAt: pgTimestamp(r.created_at),
  };
}

const PERIOD_COLUMNS = `id::text, period_key, registration_id::text, member_state_identification, return_currency, ledger_position::text, status, filing_status,
  filing_status_detail, nil_return_eligible, total_source_event_count::text, included_source_event_count::text, excluded_source_event_count::text,
  warning_count, jurisdiction_count, locked_at, locked_by_api_key_id::text, filed_at, filed_by_api_key_id::text,
  submission_reference, filed_on, filing_note`;
const EXPORT_COLUMNS = 'id::text, locked_period_id::text, period_key, export_kind, format, media_type, filename, sha256, byte_size, created_at';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every statement of the locked-period aggregate (periods and their immutable artifacts). */
export class UnionOssLockRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * How many classification decisions the projection applied to the quarter's facts (imported goods aside):
   * the sum of their applied generations, compared with the ledger's count at the fence.
   */
  async appliedDecisionCount(accountId: bigint, periodKey: string): Promise<bigint> {
    // From the running totals (kept with the facts, see union-oss-facts.ts): the quarter's days, not its facts.
    const res = await this.pool.query(
      `select coalesce(sum(decision_generation_sum), 0)::text as n from "compliance_reports".union_oss_day_total
        where account_id = $1 and day >= ($2::timestamptz at time zone 'UTC')::date and day < ($3::timestamptz at time zone 'UTC')::date and supply_kind <> 'imported_goods'`,
      [accountId.toString(), ...quarterInstants(periodKey)],
    );
    return BigInt(res.rows[0].n);
  }

  /** The account's locked quarters, latest quarter first. */
  async list(accountId: bigint): Promise<LockedPeriodRecord[]> {
    const res = await this.pool.query(`select ${PERIOD_COLUMNS} from ${PERIOD} where account_id = $1 order by period_key desc`, [accountId.toString()]);
    return res.rows.map(periodOf);
  }

  async exportsOf(accountId: bigint, periodIds: readonly bigint[]): Promise<ExportMeta[]> {
    if (periodIds.length === 0) return [];
    const res = await this.pool.query(`select ${EXPORT_COLUMNS} from ${EXPORT} where account_id = $1 and locked_period_id = any($2::bigint[]) order by created_at, filename`, [
      accountId.toString(),
      periodIds.map(String),
    ]);
    return res.rows.map(exportOf);
  }

  /** Stores the period, its artifacts and the basis it seals in one transaction; false when the quarter was already locked. */
  async lock(accountId: bigint, period: NewLockedPeriod, artifacts: readonly NewArtifact[], sealed: SealedBasis): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const row: Record<string, unknown> = {
        account_id: accountId.toString(),
        period_key: period.periodKey,
        registration_id: period.registrationId.toString(),
        member_state_identification: period.memberStateIdentification,
        return_currency: period.returnCurrency,
        ledger_position: period.ledgerPosition.toString(),
        status: 'locked',
        filing_status: period.filingStatus,
        filing_status_detail: period.filingStatusDetail,
        nil_return_eligible: period.nilReturnEligible,
        total_source_event_count: period.totalSourceEventCount.toString(),
        included_source_event_count: period.includedSourceEventCount.toString(),
        excluded_source_event_count: period.excludedSourceEventCount.toString(),
        warning_count: period.warningCount,
        jurisdiction_count: period.jurisdictionCount,
        locked_at: period.lockedAt,
        locked_by_api_key_id: period.lockedByApiKeyId.toString(),
      };
      const ins = insertStatement(PERIOD, row);
      const created = await client.query(`${ins.text} on conflict (account_id, period_key) do nothing returning id::text`, ins.values);
      if (created.rowCount === 0) return false; // nothing was written
      const periodId = created.rows[0].id as string;
      for (const a of artifacts) {
        const st = insertStatement(EXPORT, {
          id: a.id,
          account_id: accountId.toString(),
          locked_period_id: periodId,
          period_key: period.periodKey,
          export_kind: a.exportKind,
          format: a.format,
          media_type: a.mediaType,
          filename: a.filename,
          content: a.content,
          sha256: a.sha256,
          byte_size: a.content.length,
          created_at: period.lockedAt,
        });
        await client.query(st.text, st.values);
      }
      await insertSealedBasis(client, accountId, periodId, period.periodKey, sealed);
      return true;
    });
  }

  /** `locked` -> `filed` with the filing audit and record; a filed quarter keeps its first audit and record. Undefined when not locked. */
  async markFiled(accountId: bigint, periodKey: string, apiKeyId: bigint, now: Date, detail: string, record: FilingRecord): Promise<LockedPeriodRecord | undefined> {
    await this.pool.query(
      `update ${PERIOD} set status = 'filed', filing_status = 'filed', filing_status_detail = $4, filed_at = $3, filed_by_api_key_id = $5,
          submission_reference = $6, filed_on = $7, filing_note = $8
        where account_id = $1 and period_key = $2 and status = 'locked'`,
      [accountId.toString(), periodKey, now, detail, apiKeyId.toString(), record.submissionReference, record.filedOn, record.note],
    );
    const res = await this.pool.query(`select ${PERIOD_COLUMNS} from ${PERIOD} where account_id = $1 and period_key = $2`, [accountId.toString(), periodKey]);
    return res.rows[0] ? periodOf(res.rows[0]) : undefined;
  }

  /** One stored artifact of the account with its bytes; undefined for a malformed, unknown or foreign id. */
  async artifact(accountId: bigint, id: string): Promise<(ExportMeta & { content: Buffer }) | undefined> {
    if (!UUID.test(id)) return undefined;
    const res = await this.pool.query(`select ${EXPORT_COLUMNS}, content from ${EXPORT} where account_id = $1 and id = $2::uuid`, [accountId.toString(), id]);
    const r = res.rows[0];
    return r ? { ...exportOf(r), content: r.content as Buffer } : undefined;
  }
}
