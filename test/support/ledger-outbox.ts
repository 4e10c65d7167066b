import { fromBinary } from '@bufbuild/protobuf';
import { SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';

type Queryable = { query<R extends Record<string, unknown>>(sql: string, values?: unknown[]): Promise<{ rows: R[] }> };

/**
 * What the ledger's outbox holds of committed supply events: `SupplyCommitted` messages (one per chunk of
 * up to 250 events of a commit), the events they carry, and how many distinct ledger ids among them (equal
 * to `events` when no event is published twice).
 */
export async function outboxSupplyEvents(db: Queryable): Promise<{ messages: number; events: number; ids: number; largest: number }> {
  const { rows } = await db.query<{ payload: Buffer }>(`select payload from ledger.outbox where subject = 'vat.ledger.v1.supply_committed'`);
  const ids = new Set<string>();
  let events = 0;
  let largest = 0;
  for (const r of rows) {
    const m = fromBinary(SupplyCommittedSchema, r.payload);
    const carried = m.supplyEvents.length ? m.supplyEvents : m.supplyEvent ? [m.supplyEvent] : [];
    for (const e of carried) ids.add(e.id);
    events += carried.length;
    largest = Math.max(largest, carried.length);
  }
  return { messages: rows.length, events, ids: ids.size, largest };
}
