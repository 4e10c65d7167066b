import { isEuMemberState } from '@vat/platform/countries';
import type { RuleId } from '../treatment-release';

/** What the supply is, from the classification mapping's governed `supply_kind`; `unknown` without one. */
export type SupplyKind = 'goods' | 'services' | 'unknown' | 'other';

/** Article 59c comparison for the legal date (from the thresholds service), or `unknown`. */
export type ThresholdPosition = 'above' | 'at_or_below' | 'unknown';

export type SalesVatFacts = {
  customerType: 'b2c' | 'b2b';
  establishment: string | null;
  dispatch: string | null;
  destination: string;
  supplyKind: SupplyKind;
  legalDate: string;
  /**
   * The customer's VAT number as VIES evidence at the legal date (docs/vat-numbers.md): `valid` (with the
   * number's Member State, VIES code) proves a taxable person, `invalid` a non-taxable one (B2C rules);
   * `unverified` (no number, no check, or only `unavailable` answers) proves neither. Absent: unverified.
   */
  customerVat?: { status: 'valid'; state: string } | { status: 'invalid' | 'unverified' };
};

/**
 * Where the rule walk ends: a rule of the release and the State whose VAT applies (`settled`), a rule that
 * applies but cannot be settled from the facts (`open`, with findings), or a need for the Article 59c
 * position (`needs_threshold`).
 */
type RuleOutcome =
  | { kind: 'settled'; rule: RuleId; jurisdiction: string }
  | { kind: 'open'; rule: RuleId | null; status: 'incomplete' | 'unsupported'; jurisdiction: string | null; findings: string[] }
  | { kind: 'needs_threshold' };

const inEu = isEuMemberState;

/** From 2027 Art. 59c(1)(b) (Directive (EU) 2025/516) also needs dispatch to begin in the establishment State. */
const VIDA_59C_FROM = '2027-01-01';

/**
 * The sales-VAT rule walk of `governed-treatment/v2` (see docs/governed-calculation.md). Profile
 * defaults never supply a fact here: a missing fact leaves the component incomplete.
 */
export function salesVatRule(facts: SalesVatFacts, threshold?: ThresholdPosition): RuleOutcome {
  // VIES said the number is not valid: the customer is treated as a non-taxable person (Art. 18(1)(b) of 282/2011).
  const f: SalesVatFacts = facts.customerType === 'b2b' && facts.customerVat?.status === 'invalid' ? { ...facts, customerType: 'b2c' } : facts;
  const vat = f.customerVat;
  // A number of another Member State than the supplier's, valid at the legal date (VIES code EL is GR).
  const provenTaxable = (supplierState: string | null) => vat?.status === 'valid' && (vat.state === 'EL' ? 'GR' : vat.state) !== supplierState;
  const open = (rule: RuleId | null, status: 'incomplete' | 'unsupported', jurisdiction: string | null, ...findings: string[]): RuleOutcome => ({ kind: 'open', rule, status, jurisdiction, findings });
  if (f.supplyKind === 'other') return open(null, 'unsupported', f.destination, 'unsupported_scope', 'supply_kind_unsupported');
  if (f.establishment === null) return open(null, 'incomplete', f.destination, 'supplier_establishment_country_missing');
  const goodsOrUnknown = f.supplyKind !== 'services';
  if (goodsOrUnknown && f.dispatch === null) return open(null, 'incomplete', f.destination, 'dispatch_country_missing');
  if (goodsOrUnknown && !inEu(f.dispatch)) {
    // Goods dispatched from outside the EU are imported: distance sales of imported goods / IOSS are not implemented.
    return f.supplyKind === 'goods' ? open('imported_goods', 'unsupported', f.destination, 'unsupported_scope', 'imported_goods_not_implemented') : open(null, 'incomplete', f.destination, 'supply_kind_unknown');
  }
  const domesticPlace = f.supplyKind === 'services' || f.dispatch === f.destination;
  if (domesticPlace && f.establishment === f.destination) return { kind: 'settled', rule: 'domestic_supply', jurisdiction: f.destination };

  if (f.supplyKind === 'unknown') return open(null, 'incomplete', f.destination, 'supply_kind_unknown');

  if (f.supplyKind === 'services') {
    if (f.customerType === 'b2b') {
      // General B2B rule (Art. 44): place of supply where the customer is established, customer liable (Art. 196).
      if (provenTaxable(f.establishment)) return { kind: 'settled', rule: 'cross_border_services_b2b', jurisdiction: f.destination };
      return open('cross_border_services_b2b', 'incomplete', f.destination, 'service_type_unresolved');
    }
    return open('cross_border_services_b2c', 'incomplete', null, 'service_type_unresolved');
  }

  // Goods dispatched within the EU.
  if (f.dispatch === f.destination) {
    // Goods located in the destination State, sold by a supplier established elsewhere.
    if (f.customerType === 'b2b') return open('non_established_domestic_b2b', 'incomplete', f.destination, 'member_state_option_unresolved');
    return { kind: 'settled', rule: 'domestic_supply', jurisdiction: f.destination };
  }
  if (f.customerType === 'b2b') {
    // Exempt intra-Community supply (Art. 138(1)): the acquirer identified in another Member State, with a valid number.
    if (provenTaxable(f.dispatch)) return { kind: 'settled', rule: 'intra_community_supply_b2b', jurisdiction: f.dispatch! };
    return open('intra_community_supply_b2b', 'incomplete', f.dispatch, 'customer_vat_identification_unverified');
  }

  // B2C intra-Community distance sale of goods (Art. 14(4)(1), 33(a)); Art. 59c may keep it in the dispatch State.
  if (!inEu(f.establishment)) return { kind: 'settled', rule: 'distance_sale_goods_destination', jurisdiction: f.destination };
  if (f.establishment !== f.dispatch) {
    if (f.legalDate >= VIDA_59C_FROM) return { kind: 'settled', rule: 'distance_sale_goods_destination', jurisdiction: f.destination };
    return open('distance_sale_goods_destination', 'incomplete', f.destination, 'dispatch_not_from_establishment_state');
  }
  if (threshold === undefined) return { kind: 'needs_threshold' };
  if (threshold === 'above') return { kind: 'settled', rule: 'distance_sale_goods_destination', jurisdiction: f.destination };
  if (threshold === 'at_or_below') return { kind: 'settled', rule: 'distance_sale_goods_origin', jurisdiction: f.dispatch! };
  return open('distance_sale_goods_destination', 'incomplete', null, 'article_59c_status_incomplete');
}

/** The parts of the thresholds service's Article 59c status the rule walk reads. */
type Article59cView = {
  currentYear: number;
  checks: { establishmentCountry: string; currentComparison: string; previousComparison: string; currentYearCrossingOccurredAt?: string }[];
};

/**
 * The Article 59c position for a supply on `legalDate` by a supplier established in `establishment`: above when
 * the preceding year was above, or the current year's crossing happened on or before the legal date; at or
 * below when both years are; otherwise unknown (a status of another year, another establishment, no check).
 */
export function thresholdPosition(view: Article59cView, establishment: string, legalDate: string): ThresholdPosition {
  const check = view.checks[0];
  if (!check || check.establishmentCountry !== establishment || Number(legalDate.slice(0, 4)) !== view.currentYear) return 'unknown';
  if (check.previousComparison === 'above') return 'above';
  if (check.currentComparison === 'above') {
    const crossed = check.currentYearCrossingOccurredAt?.slice(0, 10);
    if (crossed === undefined) return 'unknown';
    if (crossed <= legalDate) return 'above';
    return check.previousComparison === 'at_or_below' ? 'at_or_below' : 'unknown';
  }
  return check.currentComparison === 'at_or_below' && check.previousComparison === 'at_or_below' ? 'at_or_below' : 'unknown';
}
