import { SourceProfileChangedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { buildEvent } from '@vat/platform/events';
import { sourceProfileMessage } from './messages';
import type { OutboxEvent } from '@vat/platform/outbox';
import type { SourceProfileRecord } from './repositories/source-profiles';

/*
 * The events calculation publishes, each through its outbox in the transaction of the state change:
 * - `CalculationRecorded`, for every stored calculation (calculation-record.ts);
 * - `SourceProfileChanged`, for every stored state of a source profile (below).
 * It consumes none.
 */

/** `SourceProfileChanged` for one stored revision of a profile (thresholds keeps its defaults from it). */
export function sourceProfileChangedEvent(profile: SourceProfileRecord, revision: number): OutboxEvent {
  return buildEvent(SourceProfileChangedSchema, { accountId: profile.accountId, profile: sourceProfileMessage(profile), revision });
}
