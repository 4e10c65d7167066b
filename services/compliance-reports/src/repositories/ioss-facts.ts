import type pg from 'pg';
import type { IossFact } from '../domain/ioss-months';

/**
 * The most imported-goods events (plus originals of their corrections) one IOSS quarter is computed
 * from. The months are computed in memory per event, so the read is bounded: past it the workspace
 * fails closed (422 `ioss_volume_exceeded`) rather than report a partial month.
 */
export const IOSS_QUARTER_EVENT_LIMIT = 200_000;

export class IossVolumeExceeded extends Error {
  constructor(readonly limit: number) {
    super(`The quarter has more than ${limit} imported-goods events; the IOSS months cannot be computed in one request.`);
  }
}

const SCHEMA = 'compliance_reports';
const COLUMNS = `event_id, sequence::text as sequence, event_type, original_event_id, to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at, supply_kind, customer_type, country_of_consumption, currency,
  net_amount_minor::text as net, vat_amount_minor::text as vat, vat_rate_bps, rate_category, classification_status,
  intrinsic_value_eur_minor::text as intrinsic, third_country_origin, excise_goods`;

type Row = {
  event_id: string;
  sequence: string;
  event_type: string;
  original_event_id: string | null;
  occurred_at: string;
  supply_kind: string;
  customer_type: string;
  country_of_consumption: string;
  currency: string;
  net: string;
  vat: string;
  vat_rate_bps: number;
  rate_category: string;
  classification_status: string;
  intrinsic: string | null;
  third_country_origin: string | null;
  excise_goods: boolean | null;
};

const toFact = (r: Row): IossFact => ({
  eventId: r.event_id,
  sequence: BigInt(r.sequence),
  eventType: r.event_type,
  originalEventId: r.original_event_id,
  occurredAt: new Date(r.occurred_at),
  supplyKind: r.supply_kind,
  customerType: r.customer_type,
  countryOfConsumption: r.country_of_consumption,
  currency: r.currency,
  netAmountMinor: BigInt(r.net),
  vatAmountMinor: BigInt(r.vat),
  vatRateBps: r.vat_rate_bps,
  rateCategory: r.rate_category,
  classificationStatus: r.classification_status,
  intrinsicValueEurMinor: r.intrinsic === null ? null : BigInt(r.intrinsic),
  thirdCountryOrigin: r.third_country_origin,
  exciseGoods: r.excise_goods,
});

/** Reads of the service's own supply projection for IOSS months (always scoped to one account). */
export class IossFactRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly limit = IOSS_QUARTER_EVENT_LIMIT,
  ) {}

  /**
   * The account's `imported_goods` events with a tax point in [start, endExclusive) (UTC days), and the
   * originals (any period, any kind: the domain decides whether a link is valid) their corrections name.
   * One read-only transaction, so both reads see the same projection state.
   */
  async quarter(accountId: bigint, start: string, endExclusive: string): Promise<{ facts: IossFact[]; originals: Map<string, IossFact> }> {
    const client = await this.pool.connect();
    try {
      await client.query('begin read only isolation level repeatable read');
      const res = await client.query<Row>(
        `select ${COLUMNS} from "${SCHEMA}".supply_fact
          where account_id = $1 and supply_kind = 'imported_goods' and occurred_at >= $2::timestamptz and occurred_at < $3::timestamptz
          order by sequence limit $4`,
        [accountId.toString(), `${start}T00:00:00Z`, `${endExclusive}T00:00:00Z`, this.limit + 1],
      );
      if (res.rows.length > this.limit) throw new IossVolumeExceeded(this.limit);
      const facts = res.rows.map(toFact);
      const wanted = [...new Set(facts.filter((f) => f.eventType !== 'sale' && f.originalEventId).map((f) => f.originalEventId!))];
      const originals = new Map<string, IossFact>();
      if (wanted.length > 0) {
        const o = await client.query<Row>(`select ${COLUMNS} from "${SCHEMA}".supply_fact where account_id = $1 and event_id = any($2::text[])`, [accountId.toString(), wanted]);
        for (const r of o.rows) originals.set(r.event_id, toFact(r));
      }
      await client.query('commit');
      return { facts, originals };
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }
}
