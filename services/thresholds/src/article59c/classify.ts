import { isEuMemberState } from '@vat/platform/countries';
import { GOODS_DISPATCH_RULE_FROM_YEAR } from './policy';

/** The facts of a supply event, as committed, that its disposition depends on. */
export type EventFacts = {
  supplyKind: string;
  customerType: string;
  classificationStatus: string;
  countryOfConsumption: string;
  dispatchCountry: string | null;
  supplierEstablishmentCountry: string | null;
  currency: string;
  sourceId: string | null;
};

/**
 * A `b2b` supply's VIES evidence at its tax point (compliance-reports' checks, projected from `VatNumberChecked`):
 * `valid` when the newest definitive check of its number in the evidence window said valid, else `missing`.
 */
export type VatNumberEvidence = 'valid' | 'missing';

/** The facts of one candidate event (or of a group of events sharing them) that decide its disposition. */
export type CandidateFacts = EventFacts & {
  /** A `b2b` candidate's VIES evidence (absent or null on any other; absent on a `b2b` one reads as `missing`). */
  vatNumberEvidence?: VatNumberEvidence | null;
  /** `sale`, or `correction` for refund, cancellation, credit note and adjustment. */
  eventClass: 'sale' | 'correction';
  /** A correction's link to its original sale: `linked`, `missing` (not received) or `invalid`; `none` for a sale. */
  linkState: 'none' | 'linked' | 'missing' | 'invalid';
  /** The statutory calendar year the amount belongs to (a linked correction's is its original's). */
  year: number;
};

/** Source-profile defaults of the event's `source_id`: used only where the event lacks the fact. */
export type ProfileDefaults = { supplierEstablishmentCountry?: string; dispatchCountry?: string };

/** The threshold of an establishment State, or why there is none to compare with. */
export type ThresholdLookup = (country: string) => { currency: string; amountMinor: bigint } | undefined;

type Disposition = 'counted' | 'excluded' | 'unresolved';

/** The three separate dimensions of one candidate, plus the facts used. */
export type Classification = {
  reason: string;
  disposition: Disposition;
  evidenceQuality: string;
  materiality: 'material' | 'immaterial';
  establishment: string | null;
  defaultApplied: boolean;
};

/** The reason of a `b2b` candidate without VIES evidence at its tax point (and the status issue that flags it). */
export const B2B_WITHOUT_EVIDENCE = 'b2b_without_vat_number_evidence';

const CONCLUSIVE_KIND_EXCLUSIONS = new Set(['imported_goods', 'installed_goods', 'new_means_of_transport']);

/** The first missing or unusable fact, whatever the disposition (evidence quality is its own dimension). */
function evidenceQuality(f: CandidateFacts, establishment: string | null, dispatch: string | null, defaulted: boolean, threshold: ThresholdLookup): string {
  if (f.customerType === 'b2b' && f.vatNumberEvidence !== 'valid') return 'vat_number_evidence_missing';
  if (f.eventClass === 'correction' && f.linkState === 'missing') return 'original_event_missing';
  if (f.eventClass === 'correction' && f.linkState === 'invalid') return 'original_event_invalid';
  if (f.classificationStatus === 'needs_review') return 'classification_needs_review';
  if (establishment === null) return 'supplier_establishment_country_missing';
  if (f.supplyKind === 'goods' && dispatch === null) return 'dispatch_country_missing';
  const t = isEuMemberState(establishment) ? threshold(establishment) : undefined;
  if (isEuMemberState(establishment) && t === undefined) return 'threshold_unavailable';
  if (t !== undefined && t.currency !== f.currency) return 'currency_not_threshold_currency';
  return defaulted ? 'profile_default_applied' : 'complete';
}

/**
 * Decides one candidate's disposition. Conclusive exclusions (explicitly excluded classification, B2B with or
 * without VIES evidence,
 * imported goods, installed goods, new means of transport, consumption outside the EU, domestic) are
 * decided before any missing fact, so a missing unrelated fact never blocks them; only a material
 * unresolved fact makes the candidate `unresolved`.
 */
export function classifyCandidate(f: CandidateFacts, defaults: ProfileDefaults | undefined, threshold: ThresholdLookup): Classification {
  const establishment = f.supplierEstablishmentCountry ?? defaults?.supplierEstablishmentCountry ?? null;
  const dispatch = f.supplyKind === 'goods' ? (f.dispatchCountry ?? defaults?.dispatchCountry ?? null) : f.dispatchCountry;
  const defaulted =
    (f.supplierEstablishmentCountry === null && establishment !== null) || (f.supplyKind === 'goods' && f.dispatchCountry === null && dispatch !== null);
  const quality = evidenceQuality(f, establishment, dispatch, defaulted, threshold);
  const out = (disposition: Disposition, reason: string): Classification => ({
    reason,
    disposition,
    evidenceQuality: quality,
    materiality: disposition === 'unresolved' ? 'material' : 'immaterial',
    establishment,
    defaultApplied: defaulted,
  });

  if (f.classificationStatus === 'excluded') return out('excluded', 'classification_excluded');
  // Without VIES evidence at the tax point the customer may be a non-taxable person (Art. 18(1)(b) of
  // Implementing Regulation 282/2011): still excluded, under its own reason, flagged for review.
  if (f.customerType === 'b2b') return out('excluded', f.vatNumberEvidence === 'valid' ? 'b2b' : B2B_WITHOUT_EVIDENCE);
  if (CONCLUSIVE_KIND_EXCLUSIONS.has(f.supplyKind)) return out('excluded', f.supplyKind);
  if (!isEuMemberState(f.countryOfConsumption)) return out('excluded', 'consumption_outside_eu');
  if (establishment !== null && establishment === f.countryOfConsumption) return out('excluded', 'domestic');
  if (f.classificationStatus === 'needs_review') return out('unresolved', 'classification_needs_review');
  if (f.eventClass === 'correction' && f.linkState === 'missing') return out('unresolved', 'correction_reference_missing');
  if (f.eventClass === 'correction' && f.linkState === 'invalid') return out('unresolved', 'correction_reference_invalid');
  if (establishment === null) return out('unresolved', 'supplier_establishment_country_missing');
  if (!isEuMemberState(establishment)) return out('excluded', 'established_outside_eu');
  if (f.supplyKind === 'goods') {
    if (dispatch === null) return out('unresolved', 'dispatch_country_missing');
    if (!isEuMemberState(dispatch)) return out('excluded', 'dispatch_outside_eu');
    if (dispatch === f.countryOfConsumption) return out('excluded', 'domestic');
    if (f.year >= GOODS_DISPATCH_RULE_FROM_YEAR && dispatch !== establishment) return out('excluded', 'dispatch_not_from_establishment_state');
  } else if (f.supplyKind !== 'services') {
    return out('unresolved', 'supply_kind_unsupported');
  }
  const t = threshold(establishment);
  if (t === undefined) return out('unresolved', 'threshold_unavailable');
  if (t.currency !== f.currency) return out('unresolved', 'currency_not_threshold_currency');
  return out('counted', 'counted');
}
