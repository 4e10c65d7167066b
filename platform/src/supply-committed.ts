import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import type { BusMessage } from './bus';

/**
 * How many times each of `fields` occurs as a length-delimited field at the top level of `payload`, read from the
 * wire tags without decoding (a repeated message field: how many elements).
 */
export function fieldCounts(payload: Uint8Array, fields: readonly number[]): number[] {
  const counts = fields.map(() => 0);
  const reader = new BinaryReader(payload);
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    const at = wireType === WireType.LengthDelimited ? fields.indexOf(field) : -1;
    if (at >= 0) counts[at]!++;
    reader.skip(wireType, field);
  }
  return counts;
}

/**
 * How many supply events a `SupplyCommitted` payload carries (field 3 `supply_events`, or the single field 2 of
 * versions that published one per event), read from the wire tags without decoding the events.
 */
export function supplyEventsIn(payload: Uint8Array): number {
  const [events = 0, single = 0] = fieldCounts(payload, [3, 2]);
  return events || Math.min(single, 1);
}

/**
 * Most events one `SupplyCommitted` carries (the ledger's chunk of a commit): a batch of 1,000 is four messages
 * (some 150 kB each, well under the bus's 1 MB limit), so the outbox, the bus and each consumer's inbox handle a
 * message per 250 events, not one each.
 */
export const EVENTS_PER_MESSAGE = 250;

/** Most events one transaction of a supply consumer applies. */
export const EVENTS_PER_TRANSACTION = 2000;

/** Messages a supply consumer pulls at a time: one transaction's worth of full messages. */
export const SUPPLY_MESSAGES_PER_PULL = EVENTS_PER_TRANSACTION / EVENTS_PER_MESSAGE;
/**
 * How long a projection's batch of fewer than `SUPPLY_MESSAGES_PER_PULL` messages waits for more before it is
 * applied: while events stream in, each statement applies several commits' messages (its fixed costs, the running
 * totals' upserts, shared), and a projection is never more than this behind when the stream stops.
 */
export const SUPPLY_PROJECTION_LINGER_MS = 200;

/**
 * Splits items into consecutive groups of at most `max` in total `size` (an item is never split; one larger
 * than that is a group of its own).
 */
export function groupsBySize<T>(items: readonly T[], size: (item: T) => number, max: number): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let total = 0;
  for (const item of items) {
    const n = size(item);
    if (current.length && total + n > max) {
      groups.push(current);
      current = [];
      total = 0;
    }
    current.push(item);
    total += n;
  }
  if (current.length) groups.push(current);
  return groups;
}

/**
 * A batch of `SupplyCommitted` messages in groups of whole messages of at most `maxEvents` events, counted
 * from the wire (so only one group is decoded at a time). Each group can be applied in a transaction of its own:
 * the inbox holds every message once, so a group that failed after others committed is delivered again harmlessly.
 */
export function supplyGroups(batch: readonly BusMessage[], maxEvents = EVENTS_PER_TRANSACTION): BusMessage[][] {
  return groupsBySize(batch, (m) => supplyEventsIn(m.data), maxEvents);
}
