import type pg from 'pg';
import { CalculationRecordedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { PER_REQUEST_EVENT_LINGER_MS, type Subscription } from '@vat/platform/bus';
import { freshEvents } from '@vat/platform/inbox';
import { subjectOf } from '@vat/platform/events';
import { calculationsRecorded } from '@vat/platform/calculation-recorded';

const USAGE_CONSUMER = 'gateway-key-usage';

/** One statement per batch: the inbox insert, then the counters of only the fresh events, summed per key. */
const APPLY_USAGE_SQL = `with ${freshEvents('gateway')},
  events as (
    select distinct on (event_id) event_id, api_key_id, recorded_at
    from unnest($1::text[], $3::bigint[], $4::timestamptz[]) as e(event_id, api_key_id, recorded_at)),
  usage as (
    select api_key_id, count(*) as n, max(recorded_at) as last_at
    from events join fresh using (event_id) group by api_key_id)
  update "gateway".api_key k
  set calculation_count = k.calculation_count + usage.n, last_calculation_at = greatest(k.last_calculation_at, usage.last_at)
  from usage where k.id = usage.api_key_id`;

/** Counts stored calculations per API key (shown by `admin keys list`), once per event, a batch per statement. */
export function usageConsumer(pool: pg.Pool): Subscription {
  return {
    durable: USAGE_CONSUMER,
    subjects: [subjectOf(CalculationRecordedSchema)],
    lingerMs: PER_REQUEST_EVENT_LINGER_MS,
    handler: async (batch) => {
      // A group message counts each of its calculations, each under its own event id.
      const events = calculationsRecorded(batch);
      await pool.query(APPLY_USAGE_SQL, [
        events.map(({ id }) => id),
        USAGE_CONSUMER,
        events.map(({ event }) => event.apiKeyId.toString()),
        events.map(({ event }) => event.recordedAt || null),
      ]);
    },
  };
}
