import { create, fromBinary, toBinary, type DescMessage, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { uuidv7 } from './uuid7';

/** `vat.<service>.v1.<event_snake>` for a message like `vat.calculation.v1.CalculationRecorded`. */
export function subjectOf(desc: DescMessage): string {
  const pkg = desc.typeName.slice(0, desc.typeName.length - desc.name.length - 1);
  const snake = desc.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  return `${pkg}.${snake}`;
}

/**
 * Builds a bus event (id, subject, protobuf payload) from a message. A new id is a UUID version 7: the outbox's
 * primary key and every consumer's inbox key (`processed_event`) then grow at their right edge instead of on random
 * pages (./uuid7).
 */
export function buildEvent<D extends DescMessage>(desc: D, init: MessageInitShape<D> & { eventId?: string }) {
  const id = init.eventId || uuidv7();
  const msg = create(desc, { ...init, eventId: id } as MessageInitShape<D>);
  return { id, subject: subjectOf(desc), payload: toBinary(desc, msg) };
}

export function decodeEvent<D extends DescMessage>(desc: D, data: Uint8Array): MessageShape<D> {
  return fromBinary(desc, data);
}
