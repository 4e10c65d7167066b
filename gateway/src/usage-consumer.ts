import type { MikroORM } from '@mikro-orm/postgresql';
import { CalculationRecordedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import type { Subscription } from '@vat/platform/bus';
import { consumeOnce } from '@vat/platform/outbox';
import { decodeEvent, subjectOf } from '@vat/platform/events';

export const USAGE_CONSUMER = 'gateway-key-usage';

/** Counts stored calculations per API key (shown by `admin keys list`), once per event. */
export function usageConsumer(orm: MikroORM): Subscription {
  return {
    durable: USAGE_CONSUMER,
    subjects: [subjectOf(CalculationRecordedSchema)],
    handler: async (msg) => {
      const ev = decodeEvent(CalculationRecordedSchema, msg.data);
      await consumeOnce(orm, 'gateway', USAGE_CONSUMER, ev.eventId || msg.id, async (em) => {
        await em.getConnection().execute(
          `update "gateway".api_key set calculation_count = calculation_count + 1,
             last_calculation_at = greatest(coalesce(last_calculation_at, ?::timestamptz), ?::timestamptz) where id = ?`,
          [ev.recordedAt, ev.recordedAt, ev.apiKeyId.toString()],
          'run',
          em.getTransactionContext(),
        );
      });
    },
  };
}
