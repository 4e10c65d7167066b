import { defineEntity, p } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { ExchangeRatesPublishedSchema, RateReleasePublishedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import type { RateInForce } from '@vat/gen/vat/calculation/v1/resources_pb';
import type { BusMessage, Subscription } from './bus';
import { selectEcbDays } from './ecb-day-rows';
import { decodeEvent, subjectOf } from './events';
import { EUR, EcbRateTable, eurRate, type EcbRate } from './fx';
import { Code, rpcError } from './rpc-errors';
import { insertRows, type Queryable } from './sql';
import { inTransaction } from './transaction';

/**
 * A service's own copy of calculation's reference data, fed by the events calculation publishes through its
 * outbox (`RateReleasePublished`, `ExchangeRatesPublished`): the newest VAT rate release (tax class ids, the
 * rates in force, every class's windows) and the ECB publication days. The ledger and compliance-reports read
 * these instead of calling calculation, so neither depends on it at request time (docs/architecture.md, "The
 * service graph"). One definition of the tables, the consumer and the readers for every service that keeps it.
 *
 * Complete on a fresh start and after a restart: calculation writes the events in the transaction that stores
 * the data (the seed on a fresh database included), and publishes at start whatever it stored before these
 * events existed; a durable consumer (JetStream) or the in-process bus, whose relays are drained before the
 * process listens, delivers them. Both applies are idempotent by key (a release by id, a day by date with the
 * import that wrote it), so no inbox row is needed: a redelivered event writes the same rows again. What the bus
 * no longer holds (a lost or fresh NATS stream) the service asks for (reference-request.ts).
 */
export function defineReferenceProjectionEntities() {
  const RateReleaseProjection = defineEntity({
    name: 'RateReleaseProjection',
    tableName: 'rate_release_projection',
    properties: {
      releaseId: p.bigint().primary().autoincrement(false),
      digest: p.string().length(80),
      version: p.string().length(40),
      taxClassIds: p.json<string[]>(),
      ratesInForce: p.json<ProjectedRateInForce[]>(),
      windows: p.json<ProjectedRateWindow[]>(),
      appliedAt: p.datetime(),
    },
  });
  const EcbRateDayProjection = defineEntity({
    name: 'EcbRateDayProjection',
    tableName: 'ecb_rate_day_projection',
    properties: {
      rateDate: p.string().length(10).primary(),
      rates: p.json<Record<string, string>>(),
      /** How many currencies `rates` holds: readiness sums it instead of expanding every day's JSON. */
      rateCount: p.integer(),
      importId: p.bigint(),
    },
  });
  /**
   * One row per kind (`vat_rates`, `ecb`): bumped by every apply, so a reader reloads only on change, with the
   * rows the kind must hold to be complete as calculation last announced them (ECB days; null: none announced).
   */
  const ReferenceProjectionVersion = defineEntity({
    name: 'ReferenceProjectionVersion',
    tableName: 'reference_projection_version',
    properties: {
      kind: p.string().length(20).primary(),
      version: p.bigint(),
      expectedRows: p.bigint().nullable(),
    },
  });
  return { RateReleaseProjection, EcbRateDayProjection, ReferenceProjectionVersion };
}

/** A rate in force as the projection stores it (`RateInForce` without the protobuf type name). */
export type ProjectedRateInForce = Omit<RateInForce, '$typeName'>;
/** One class's dated window [validFrom, validTo) in one Member State. */
export type ProjectedRateWindow = { country: string; taxClassId: string; rateBps: number; rateType: string; validFrom: string; validTo?: string };

/** What a reference projection holds, each kind fed by its own event. */
export const REFERENCE_KINDS = ['vat_rates', 'ecb'] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

/** The subjects the reference-data consumer takes. */
export const REFERENCE_SUBJECTS = [subjectOf(RateReleasePublishedSchema), subjectOf(ExchangeRatesPublishedSchema)];

/** Bumps a kind's version; `$2`: the rows it must hold as announced (null: none), kept at the largest announced. */
const bump = (schema: string) =>
  `insert into "${schema}".reference_projection_version (kind, version, expected_rows) values ($1, 1, $2::bigint)
   on conflict (kind) do update set version = "${schema}".reference_projection_version.version + 1,
     expected_rows = greatest("${schema}".reference_projection_version.expected_rows, excluded.expected_rows)`;

/** Applies one batch of reference-data events to `schema`'s projection through `db` (one transaction). */
export async function applyReferenceData(db: Queryable, schema: string, batch: readonly BusMessage[], now: Date): Promise<void> {
  const releases = batch.filter((m) => m.subject === REFERENCE_SUBJECTS[0]).map((m) => decodeEvent(RateReleasePublishedSchema, m.data));
  const days = new Map<string, { rate_date: string; rates: Record<string, string>; rate_count: number; import_id: string }>();
  let daysHeld = 0n;
  for (const m of batch) {
    if (m.subject !== REFERENCE_SUBJECTS[1]) continue;
    const e = decodeEvent(ExchangeRatesPublishedSchema, m.data);
    if (e.daysHeld > daysHeld) daysHeld = e.daysHeld;
    for (const d of e.days) {
      const held = days.get(d.date);
      if (!held || BigInt(held.import_id) <= e.importId) days.set(d.date, { rate_date: d.date, rates: { ...d.rates }, rate_count: Object.keys(d.rates).length, import_id: e.importId.toString() });
    }
  }
  if (releases.length) {
    const rows = releases.map((r) => ({
      release_id: r.releaseId.toString(),
      digest: r.digest,
      version: r.version,
      tax_class_ids: r.taxClassIds,
      rates_in_force: r.ratesInForce.map(({ $typeName: _t, ...rest }) => rest),
      windows: r.windows.map(({ $typeName: _t, ...rest }) => rest),
      applied_at: now,
    }));
    await insertRows(db, `"${schema}".rate_release_projection`, { release_id: 'bigint', digest: 'text', version: 'text', tax_class_ids: 'jsonb', rates_in_force: 'jsonb', windows: 'jsonb', applied_at: 'timestamptz' }, rows, 'on conflict (release_id) do nothing');
    await db.query(bump(schema), ['vat_rates', null]);
  }
  if (days.size) {
    await insertRows(
      db,
      `"${schema}".ecb_rate_day_projection`,
      { rate_date: 'text', rates: 'jsonb', rate_count: 'int', import_id: 'bigint' },
      [...days.values()],
      `on conflict (rate_date) do update set rates = excluded.rates, rate_count = excluded.rate_count, import_id = excluded.import_id where "${schema}".ecb_rate_day_projection.import_id <= excluded.import_id`,
    );
    await db.query(bump(schema), ['ecb', daysHeld > 0n ? daysHeld.toString() : null]);
  }
}

/** The durable consumer of calculation's reference data for `schema` (one transaction per batch). */
export function referenceDataConsumer(pool: pg.Pool, schema: string, durable: string, now: () => Date = () => new Date()): Subscription {
  return {
    durable,
    subjects: REFERENCE_SUBJECTS,
    handler: (batch) => inTransaction(pool, (client) => applyReferenceData(client, schema, batch, now())),
  };
}

/** The newest projected VAT rate release. */
export type ProjectedRateRelease = {
  releaseId: bigint;
  digest: string;
  version: string;
  taxClassIds: ReadonlySet<string>;
  ratesInForce: readonly ProjectedRateInForce[];
  windows: readonly ProjectedRateWindow[];
};

/**
 * The lag rule: how long a read waits for a projection to receive what it needs (a calculation recorded
 * milliseconds earlier, the reference data on a fresh start) before answering without it. Events travel
 * from the publisher's outbox to the consumer in milliseconds (in one process, before the publisher's relay
 * pass ends); two seconds covers a relay poll and a consumer batch under load.
 */
export const PROJECTION_LAG_WAIT_MS = 2000;

/**
 * Calls `probe` until it answers a value (not undefined) or `maxMs` has passed, polling at growing intervals
 * (10 ms doubling to 200 ms). Answers undefined when the time ran out.
 */
export async function awaitProjected<T>(probe: () => Promise<T | undefined>, maxMs = PROJECTION_LAG_WAIT_MS): Promise<T | undefined> {
  const until = Date.now() + maxMs;
  for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
    const value = await probe();
    if (value !== undefined) return value;
    const left = until - Date.now();
    if (left <= 0) return undefined;
    await new Promise((r) => setTimeout(r, Math.min(pause, left)));
  }
}

/** 503 `reference_data_unavailable`: the projection has not received calculation's reference data within the lag rule. */
export function referenceDataUnavailable(kind: ReferenceKind) {
  const what = kind === 'vat_rates' ? 'VAT rate release' : 'ECB reference rates';
  return rpcError(Code.Unavailable, 'reference_data_unavailable', `The ${what} published by the calculation service has not reached this service yet (a fresh start is still delivering it); retry shortly.`);
}

/**
 * Reads a service's reference projection, held in memory and reloaded when its version row changes (one
 * single-row query per read, so a release or an ECB import applied by any replica is seen at the next read).
 */
export class ReferenceProjection {
  private release: { version: string; value: ProjectedRateRelease } | undefined;
  private ecb: { version: string; value: EcbRateTable } | undefined;
  private ecbCounted: { version: string; value: { size: number; days: number; last: string | undefined } } | undefined;

  constructor(private readonly pool: pg.Pool, private readonly schema: string) {}

  private async state(): Promise<Map<string, { version: string; expectedRows: number | undefined }>> {
    const res = await this.pool.query<{ kind: string; version: string; expected_rows: string | null }>(
      `select kind, version::text as version, expected_rows::text as expected_rows from "${this.schema}".reference_projection_version`,
    );
    return new Map(res.rows.map((r) => [r.kind, { version: r.version, expectedRows: r.expected_rows === null ? undefined : Number(r.expected_rows) }]));
  }

  private async versions(): Promise<Map<string, string>> {
    return new Map([...(await this.state())].map(([kind, s]) => [kind, s.version]));
  }

  /** Whether a kind holds fewer rows than calculation announced (its announcement not all arrived yet). */
  private static receiving(kind: { expectedRows: number | undefined } | undefined, held: number): boolean {
    return kind?.expectedRows !== undefined && held < kind.expectedRows;
  }

  /**
   * The kinds not complete yet: nothing arrived, or (ECB) fewer days than calculation announced it holds (its
   * answer is some 28 events, applied in several batches). Empty when the projection is complete.
   */
  async missing(): Promise<ReferenceKind[]> {
    const state = await this.state();
    const ecb = state.get('ecb');
    const ecbIncomplete = ecb !== undefined && ReferenceProjection.receiving(ecb, (await this.ecbSummaryOf(ecb.version)).days);
    return REFERENCE_KINDS.filter((kind) => !state.has(kind) || (kind === 'ecb' && ecbIncomplete));
  }

  /** The newest release, or undefined when none is projected yet. */
  async rateRelease(): Promise<ProjectedRateRelease | undefined> {
    return this.rateReleaseOf((await this.versions()).get('vat_rates'));
  }

  private async rateReleaseOf(version: string | undefined): Promise<ProjectedRateRelease | undefined> {
    if (version === undefined) return undefined;
    if (this.release?.version === version) return this.release.value;
    const res = await this.pool.query<{ release_id: string; digest: string; version: string; tax_class_ids: string[]; rates_in_force: ProjectedRateInForce[]; windows: ProjectedRateWindow[] }>(
      `select release_id::text as release_id, digest, version, tax_class_ids, rates_in_force, windows from "${this.schema}".rate_release_projection order by release_id desc limit 1`,
    );
    const r = res.rows[0];
    if (!r) return undefined;
    const value = { releaseId: BigInt(r.release_id), digest: r.digest, version: r.version, taxClassIds: new Set(r.tax_class_ids), ratesInForce: r.rates_in_force, windows: r.windows };
    this.release = { version, value };
    return value;
  }

  /** The newest release, waiting for the first under the lag rule; 503 `reference_data_unavailable` when none arrived. */
  async requireRateRelease(): Promise<ProjectedRateRelease> {
    const r = await awaitProjected(() => this.rateRelease());
    if (!r) throw referenceDataUnavailable('vat_rates');
    return r;
  }

  /**
   * The ECB days, waiting under the lag rule until they are complete (every day calculation announced it holds);
   * 503 `reference_data_unavailable` when they are not by then: a conversion never takes a neighbouring day for
   * one still on its way.
   */
  async requireEcbRates(): Promise<EcbRateTable> {
    const t = await awaitProjected(async () => {
      const ecb = (await this.state()).get('ecb');
      if (!ecb) return undefined;
      const table = await this.ecbRatesOf(ecb.version);
      if (ReferenceProjection.receiving(ecb, table.publicationDates().length)) return undefined;
      return table.lastPublicationDate() === undefined ? undefined : table;
    });
    if (!t) throw referenceDataUnavailable('ecb');
    return t;
  }

  /** Every projected ECB publication day as a rate table (empty before the first day arrives). */
  async ecbRates(): Promise<EcbRateTable> {
    return this.ecbRatesOf((await this.versions()).get('ecb') ?? '0');
  }

  private async ecbRatesOf(version: string): Promise<EcbRateTable> {
    if (this.ecb?.version === version) return this.ecb.value;
    const value = EcbRateTable.fromDays(await selectEcbDays(this.pool, `"${this.schema}".ecb_rate_day_projection`));
    this.ecb = { version, value };
    return value;
  }

  /**
   * For each query, the ECB rate of its date or of the next publication day (the Union OSS and IOSS conversion
   * rule, Arts. 366(2) and 369v of Directive 2006/112/EC); undefined where none is published (yet). Waits for
   * the ECB days under the lag rule only when a query is not in euro.
   */
  async ratesOnOrNextPublication(queries: readonly { currency: string; date: string }[]): Promise<({ rate: EcbRate; rateDate: string } | undefined)[]> {
    if (!queries.some((q) => q.currency !== EUR)) return queries.map((q) => ({ rate: eurRate(q.date), rateDate: q.date }));
    const table = await this.requireEcbRates();
    return queries.map((q) => table.rateOnOrNextPublication(q.currency, q.date));
  }

  /**
   * How many ECB rates are projected and the last publication day: from the table in memory when it is
   * loaded and current, else counted by the database (the table itself is loaded by the first read that
   * needs a rate, not by a readiness probe).
   */
  private async ecbSummaryOf(version: string): Promise<{ size: number; days: number; last: string | undefined }> {
    if (this.ecb?.version === version) return { size: this.ecb.value.size, days: this.ecb.value.publicationDates().length, last: this.ecb.value.lastPublicationDate() };
    if (this.ecbCounted?.version === version) return this.ecbCounted.value;
    const res = await this.pool.query<{ size: number; days: number; last: string | null }>(
      `select coalesce(sum(rate_count), 0)::int as size, count(*)::int as days, max(rate_date) as last from "${this.schema}".ecb_rate_day_projection`,
    );
    const value = { size: res.rows[0]!.size, days: res.rows[0]!.days, last: res.rows[0]!.last ?? undefined };
    this.ecbCounted = { version, value };
    return value;
  }

  /** Readiness: whether a release and every ECB day calculation announced have arrived. */
  async probes(service: string): Promise<{ name: string; ok: boolean; detail: string }[]> {
    // One read of the version rows for the whole probe.
    const state = await this.state();
    const release = await this.rateReleaseOf(state.get('vat_rates')?.version);
    const ecb = await this.ecbSummaryOf(state.get('ecb')?.version ?? '0');
    const last = ecb.last;
    const expected = state.get('ecb')?.expectedRows;
    const receiving = ReferenceProjection.receiving(state.get('ecb'), ecb.days);
    return [
      { name: `${service}.projection.vat_rates`, ok: release !== undefined, detail: release ? `release ${release.version} (${release.ratesInForce.length} rates in force)` : 'no VAT rate release received from calculation yet' },
      {
        name: `${service}.projection.ecb_rates`,
        ok: last !== undefined && !receiving,
        detail: !last ? 'no ECB rates received from calculation yet' : receiving ? `receiving ECB days from calculation: ${ecb.days} of ${expected}` : `${ecb.size} ECB rates to ${last}`,
      },
    ];
  }
}
