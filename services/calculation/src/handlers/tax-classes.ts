import { create } from '@bufbuild/protobuf';
import type { ServiceImpl } from '@connectrpc/connect';
import { TaxClassService, GetTaxClassResponseSchema, ListRatesResponseSchema, ListTaxClassesResponseSchema } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import type { TaxClass as TaxClassMsg, TaxClassRate } from '@vat/gen/vat/calculation/v1/resources_pb';
import { EU_MEMBER_STATES } from '@vat/seeds/vat-rates';
import { invalidArgument, notFound } from '@vat/platform/rpc-errors';
import { parseTransactionDate } from '@vat/platform/http-inputs';
import type { ServiceDeps } from '@vat/platform/service-module';
import { servableByV1, type RateStore, type RateWindow, type TaxClassRecord } from '../reference/rate-store';

export const MAX_Q_LENGTH = 120;

/** `at` as a UTC date; RFC 3339 or YYYY-MM-DD, default now. */
export function resolveAt(at: string | undefined, now: Date): string {
  if (at === undefined) return now.toISOString().slice(0, 10);
  const parsed = parseTransactionDate(at);
  if (!parsed.ok) throw invalidArgument('invalid_at', '`at` must be an RFC 3339 timestamp or a YYYY-MM-DD date.');
  return parsed.iso.slice(0, 10);
}

export function checkCountry(country: string | undefined, code = 'invalid_country'): void {
  if (country !== undefined && !(EU_MEMBER_STATES as readonly string[]).includes(country)) {
    throw invalidArgument(code, `"${country}" is not an EU Member State code (ISO 3166-1 alpha-2, GR for Greece).`);
  }
}

export function rateMessage(w: RateWindow): TaxClassRate {
  return {
    $typeName: 'vat.calculation.v1.TaxClassRate',
    country: w.country,
    rateBps: w.rateBps,
    validFrom: w.validFrom,
    validTo: w.validTo ?? undefined,
    taxClassId: w.taxClassId,
    rateType: w.rateType,
    conditional: w.conditional,
    conditions: w.conditions ?? undefined,
    reviewStatus: w.reviewStatus,
    sources: w.sources.map((s) => ({ $typeName: 'vat.calculation.v1.SourceEvidence', sourceId: s.source_id, title: s.title, url: s.url, asOf: s.as_of, legalRef: w.legalRef ?? '', tedbCategory: w.tedbCategory ?? '', reviewStatus: w.reviewStatus })),
  };
}

function classMessage(c: TaxClassRecord, extra: Partial<TaxClassMsg> = {}): TaxClassMsg {
  return {
    $typeName: 'vat.calculation.v1.TaxClass',
    id: c.id,
    name: c.name,
    description: c.description,
    source: c.source,
    groupSlug: c.groupSlug,
    groupName: c.groupName,
    tags: c.tags,
    annexIiiPoints: c.annexIiiPoints,
    rates: [],
    ...extra,
  };
}

export function taxClassService(deps: ServiceDeps, rates: RateStore): ServiceImpl<typeof TaxClassService> {
  return {
    async listTaxClasses(req) {
      if (req.q !== undefined && req.q.length > MAX_Q_LENGTH) throw invalidArgument('invalid_q', `q must be at most ${MAX_Q_LENGTH} characters.`);
      checkCountry(req.country);
      const at = resolveAt(req.at, deps.now());
      const snap = await rates.current();
      if (req.group !== undefined && !snap.groups().has(req.group)) throw invalidArgument('unknown_group', `Unknown group "${req.group}".`);
      if (req.tag !== undefined && !snap.tags().has(req.tag)) throw invalidArgument('unknown_tag', `Unknown tag "${req.tag}".`);
      const q = req.q?.trim().toLowerCase();
      const items = snap.classes
        .filter((c) => !q || c.id.toLowerCase().includes(q) || c.name.toLowerCase().includes(q) || c.description.toLowerCase().includes(q))
        .filter((c) => req.group === undefined || c.groupSlug === req.group)
        .filter((c) => req.tag === undefined || c.tags.includes(req.tag))
        .map((c) => {
          if (req.country === undefined) return classMessage(c);
          const w = snap.windowAt(req.country, c.id, at);
          // Preview only what v1 would apply: unconditional, source-cited windows; anything else is null.
          return classMessage(c, { previewRateBps: w && servableByV1(w) ? w.rateBps : undefined });
        });
      return create(ListTaxClassesResponseSchema, { items });
    },

    async getTaxClass(req) {
      checkCountry(req.country);
      const at = resolveAt(req.at, deps.now());
      const snap = await rates.current();
      const c = snap.classById.get(req.id);
      if (!c) throw notFound('tax_class_not_found', `No tax class "${req.id}".`);
      const countries = req.country ? [req.country] : [...EU_MEMBER_STATES];
      const windows = countries.map((cc) => snap.windowAt(cc, c.id, at)).filter((w): w is RateWindow => w !== undefined);
      return create(GetTaxClassResponseSchema, { taxClass: classMessage(c, { rates: windows.map(rateMessage) }) });
    },

    async listRates(req) {
      if (!req.country) throw invalidArgument('invalid_country', '`country` is required.');
      checkCountry(req.country);
      const snap = await rates.current();
      if (req.taxClassId !== undefined && !snap.classById.has(req.taxClassId)) throw notFound('tax_class_not_found', `No tax class "${req.taxClassId}".`);
      if (req.history && req.taxClassId === undefined) throw invalidArgument('history_requires_tax_class', '`history=true` needs a `tax_class_id`.');
      if (req.history && req.at !== undefined) throw invalidArgument('invalid_at', '`at` and `history=true` cannot be combined.');
      let windows: RateWindow[];
      let at: string | undefined;
      if (req.history) {
        windows = snap.history(req.country, req.taxClassId!);
      } else {
        at = resolveAt(req.at, deps.now());
        const classIds = req.taxClassId ? [req.taxClassId] : snap.classes.map((c) => c.id);
        windows = classIds.map((id) => snap.windowAt(req.country, id, at!)).filter((w): w is RateWindow => w !== undefined);
      }
      return create(ListRatesResponseSchema, { country: req.country, at, rates: windows.map(rateMessage), dataReleaseDigest: snap.release.digest });
    },
  };
}
