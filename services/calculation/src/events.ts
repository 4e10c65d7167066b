import { ExchangeRatesPublishedSchema, RateReleasePublishedSchema, SourceProfileChangedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { EU_MEMBER_STATES } from '@vat/platform/countries';
import { buildEvent } from '@vat/platform/events';
import type { OutboxEvent } from '@vat/platform/outbox';
import type { ProjectedRateInForce, ProjectedRateWindow } from '@vat/platform/reference-projection';
import { sourceProfileMessage } from './messages';
import type { EcbDay } from './reference/ecb-days';
import type { RateSnapshot } from './reference/rate-store';
import { ratesInForce } from './reference/rates-in-force';
import type { SourceProfileRecord } from './repositories/source-profiles';

/*
 * The events calculation publishes, each through its outbox in the transaction of the state change:
 * - `CalculationRecorded`, for every stored calculation (calculation-record.ts);
 * - `SourceProfileChanged`, for every stored state of a source profile (below);
 * - `RateReleasePublished` and `ExchangeRatesPublished`, its reference data, for the ledger's and
 *   compliance-reports' projections (below; recorded in repositories/reference-publications.ts), and
 *   both again, straight to the bus, on request.
 * It consumes `ReferenceDataRequested` (reference/requests.ts).
 */

/** `SourceProfileChanged` for one stored revision of a profile (thresholds and compliance-reports keep their defaults from it). */
export function sourceProfileChangedEvent(profile: SourceProfileRecord, revision: number): OutboxEvent {
  return buildEvent(SourceProfileChangedSchema, { accountId: profile.accountId, profile: sourceProfileMessage(profile), revision });
}

/** What `RateReleasePublished` carries of a release. */
export type ReleaseContent = { releaseId: bigint; digest: string; version: string; taxClassIds: string[]; ratesInForce: ProjectedRateInForce[]; windows: ProjectedRateWindow[] };

/** A release as published: every class id, the rates in force in all 27 Member States (as `ListRatesInForce`), every class's windows. */
export function releaseContentOf(snap: RateSnapshot): ReleaseContent {
  return {
    releaseId: snap.release.id,
    digest: snap.release.digest,
    version: snap.release.version,
    taxClassIds: snap.classes.map((c) => c.id),
    ratesInForce: ratesInForce(snap, new Set(EU_MEMBER_STATES)).map((s) => ({ country: s.country, region: s.region, rateBps: s.rateBps, rateType: s.rateType, validFrom: s.validFrom, validTo: s.validTo ?? undefined })),
    windows: snap.windows.map((w) => ({ country: w.country, taxClassId: w.taxClassId, rateBps: w.rateBps, rateType: w.rateType, validFrom: w.validFrom, validTo: w.validTo ?? undefined })),
  };
}

export function rateReleasePublishedEvent(r: ReleaseContent): OutboxEvent {
  return buildEvent(RateReleasePublishedSchema, r);
}

/** Days per `ExchangeRatesPublished` (about 10,000 rates, some 200 kB: well under the bus's 1 MB message limit). */
const DAYS_PER_EVENT = 250;

/**
 * An import's days as `ExchangeRatesPublished` events, in date order; `daysHeld`: how many days calculation
 * holds with them stored (a projection with fewer is still receiving: docs/reference-data.md, "On request").
 */
export function exchangeRatesPublishedEvents(importId: bigint, days: readonly EcbDay[], daysHeld: number): OutboxEvent[] {
  const sorted = [...days].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const out: OutboxEvent[] = [];
  for (let i = 0; i < sorted.length; i += DAYS_PER_EVENT) {
    out.push(buildEvent(ExchangeRatesPublishedSchema, { importId, daysHeld: BigInt(daysHeld), days: sorted.slice(i, i + DAYS_PER_EVENT).map((d) => ({ date: d.date, rates: { ...d.rates } })) }));
  }
  return out;
}
