import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { CalculationRecordedSchema, type CalculationRecorded } from '@vat/gen/vat/calculation/v1/events_pb';
import type { BusMessage } from './bus';
import { buildEvent, decodeEvent } from './events';
import type { OutboxEvent } from './outbox';
import { fieldCounts } from './supply-committed';

/** `CalculationRecorded.calculations`: the field number that carries a group's calculations. */
const CALCULATIONS_FIELD = 15;

/**
 * The calculations a batch of `CalculationRecorded` messages records, each with its event id (the inbox key): a
 * group message's inner events in order, or the message itself (its event id, else the bus message id).
 */
export function calculationsRecorded(batch: readonly BusMessage[]): { id: string; event: CalculationRecorded }[] {
  const out: { id: string; event: CalculationRecorded }[] = [];
  for (const msg of batch) {
    const ev = decodeEvent(CalculationRecordedSchema, msg.data);
    if (ev.calculations.length === 0) out.push({ id: ev.eventId || msg.id, event: ev });
    else for (const inner of ev.calculations) out.push({ id: inner.eventId, event: inner });
  }
  return out;
}

/**
 * The wire parts of a group `CalculationRecorded`, so its payload can be assembled from the events of the rows a
 * statement actually stored: `head` (the group's event id and account) followed by the `part` of each stored
 * calculation's own encoded event. Protobuf messages concatenate field by field, so head + parts decodes as the
 * group message with those calculations in that order.
 */
export function calculationGroupHead(accountId: bigint): OutboxEvent {
  return buildEvent(CalculationRecordedSchema, { accountId });
}

/** One calculation's encoded `CalculationRecorded` as an element of a group's `calculations`. */
export function calculationGroupPart(payload: Uint8Array): Uint8Array {
  return new BinaryWriter().tag(CALCULATIONS_FIELD, WireType.LengthDelimited).bytes(payload).finish();
}

/** How many calculations a `CalculationRecorded` payload records (a group's, else 1), read from the wire tags without decoding. */
export function calculationsIn(payload: Uint8Array): number {
  return fieldCounts(payload, [CALCULATIONS_FIELD])[0] || 1;
}
