import { describe, expect, it } from 'vitest';
import { salesVatRule, thresholdPosition, type SalesVatFacts } from './sales-vat';

const facts = (over: Partial<SalesVatFacts> = {}): SalesVatFacts => ({ customerType: 'b2c', establishment: 'DE', dispatch: 'DE', destination: 'DE', supplyKind: 'goods', legalDate: '2026-03-01', ...over });

describe('sales-VAT rule walk (governed-treatment/v2)', () => {
  it('domestic supplies settle in the destination State, whatever the supply kind', () => {
    for (const supplyKind of ['goods', 'services', 'unknown'] as const) expect(salesVatRule(facts({ supplyKind }))).toEqual({ kind: 'settled', rule: 'domestic_supply', jurisdiction: 'DE' });
    expect(salesVatRule(facts({ supplyKind: 'services', dispatch: null, customerType: 'b2b' }))).toEqual({ kind: 'settled', rule: 'domestic_supply', jurisdiction: 'DE' });
  });

  it('B2C goods to another State: needs the Article 59c position, then origin (at or below) or destination (above)', () => {
    const f = facts({ destination: 'FR' });
    expect(salesVatRule(f)).toEqual({ kind: 'needs_threshold' });
    expect(salesVatRule(f, 'at_or_below')).toEqual({ kind: 'settled', rule: 'distance_sale_goods_origin', jurisdiction: 'DE' });
    expect(salesVatRule(f, 'above')).toEqual({ kind: 'settled', rule: 'distance_sale_goods_destination', jurisdiction: 'FR' });
    expect(salesVatRule(f, 'unknown')).toMatchObject({ kind: 'open', status: 'incomplete', findings: ['article_59c_status_incomplete'] });
  });

  it('Art. 59c does not apply to a supplier established outside the EU, nor from 2027 when dispatch is not from the establishment State', () => {
    expect(salesVatRule(facts({ establishment: 'US', destination: 'FR' }))).toEqual({ kind: 'settled', rule: 'distance_sale_goods_destination', jurisdiction: 'FR' });
    expect(salesVatRule(facts({ establishment: 'AT', destination: 'FR', legalDate: '2027-01-01' }))).toEqual({ kind: 'settled', rule: 'distance_sale_goods_destination', jurisdiction: 'FR' });
    expect(salesVatRule(facts({ establishment: 'AT', destination: 'FR', legalDate: '2026-12-31' }))).toMatchObject({ kind: 'open', findings: ['dispatch_not_from_establishment_state'] });
  });

  it('leaves what it cannot settle open, with the reason', () => {
    expect(salesVatRule(facts({ establishment: null }))).toMatchObject({ kind: 'open', status: 'incomplete', findings: ['supplier_establishment_country_missing'] });
    expect(salesVatRule(facts({ dispatch: null }))).toMatchObject({ kind: 'open', findings: ['dispatch_country_missing'] });
    expect(salesVatRule(facts({ destination: 'FR', supplyKind: 'unknown' }))).toMatchObject({ kind: 'open', findings: ['supply_kind_unknown'] });
    expect(salesVatRule(facts({ destination: 'FR', customerType: 'b2b' }))).toMatchObject({ kind: 'open', rule: 'intra_community_supply_b2b', jurisdiction: 'DE', findings: ['customer_vat_identification_unverified'] });
    expect(salesVatRule(facts({ destination: 'FR', supplyKind: 'services', customerType: 'b2b' }))).toMatchObject({ kind: 'open', rule: 'cross_border_services_b2b', findings: ['service_type_unresolved'] });
    expect(salesVatRule(facts({ destination: 'FR', supplyKind: 'services' }))).toMatchObject({ kind: 'open', rule: 'cross_border_services_b2c' });
    expect(salesVatRule(facts({ establishment: 'AT', customerType: 'b2b' }))).toMatchObject({ kind: 'open', rule: 'non_established_domestic_b2b', findings: ['member_state_option_unresolved'] });
    expect(salesVatRule(facts({ dispatch: 'CN' }))).toMatchObject({ kind: 'open', status: 'unsupported', rule: 'imported_goods' });
    expect(salesVatRule(facts({ supplyKind: 'other' }))).toMatchObject({ kind: 'open', status: 'unsupported', findings: ['unsupported_scope', 'supply_kind_unsupported'] });
  });

  it('B2B across borders: a valid VIES number settles reverse charge / intra-Community supply; invalid is B2C; unverified stays open', () => {
    const valid = { status: 'valid', state: 'FR' } as const;
    // Services (Art. 44, 196): the customer's State, the customer liable.
    expect(salesVatRule(facts({ destination: 'FR', supplyKind: 'services', customerType: 'b2b', customerVat: valid }))).toEqual({ kind: 'settled', rule: 'cross_border_services_b2b', jurisdiction: 'FR' });
    // Goods dispatched DE → FR (Art. 138(1)): exempt in the dispatch State.
    expect(salesVatRule(facts({ destination: 'FR', customerType: 'b2b', customerVat: valid }))).toEqual({ kind: 'settled', rule: 'intra_community_supply_b2b', jurisdiction: 'DE' });
    // A valid number of the supplier's own State proves no cross-border taxable customer.
    expect(salesVatRule(facts({ destination: 'FR', customerType: 'b2b', customerVat: { status: 'valid', state: 'DE' } }))).toMatchObject({ kind: 'open', findings: ['customer_vat_identification_unverified'] });
    expect(salesVatRule(facts({ establishment: 'GR', dispatch: 'GR', destination: 'FR', customerType: 'b2b', customerVat: { status: 'valid', state: 'EL' } }))).toMatchObject({ kind: 'open', rule: 'intra_community_supply_b2b' });
    // unverified: as without a number
    expect(salesVatRule(facts({ destination: 'FR', customerType: 'b2b', customerVat: { status: 'unverified' } }))).toMatchObject({ kind: 'open', findings: ['customer_vat_identification_unverified'] });
    // invalid: the B2C rules (Art. 18(1)(b) of 282/2011): a distance sale that needs the Art. 59c position
    expect(salesVatRule(facts({ destination: 'FR', customerType: 'b2b', customerVat: { status: 'invalid' } }))).toEqual({ kind: 'needs_threshold' });
    expect(salesVatRule(facts({ destination: 'FR', supplyKind: 'services', customerType: 'b2b', customerVat: { status: 'invalid' } }))).toMatchObject({ kind: 'open', rule: 'cross_border_services_b2c' });
  });

  it('an establishment outside the EU selling goods located in the destination State to consumers is a domestic supply there', () => {
    expect(salesVatRule(facts({ establishment: 'US' }))).toEqual({ kind: 'settled', rule: 'domestic_supply', jurisdiction: 'DE' });
  });
});

describe('Article 59c position for a legal date', () => {
  const view = (current: string, previous: string, crossed?: string) => ({ currentYear: 2026, checks: [{ establishmentCountry: 'DE', currentComparison: current, previousComparison: previous, currentYearCrossingOccurredAt: crossed }] });

  it('is above when the preceding year was above, or the current crossing happened on or before the legal date', () => {
    expect(thresholdPosition(view('at_or_below', 'above'), 'DE', '2026-03-01')).toBe('above');
    expect(thresholdPosition(view('above', 'at_or_below', '2026-02-01T10:00:00Z'), 'DE', '2026-03-01')).toBe('above');
    expect(thresholdPosition(view('above', 'at_or_below', '2026-03-01T23:00:00Z'), 'DE', '2026-03-01')).toBe('above');
  });

  it('is at or below before the crossing date, or when both years are', () => {
    expect(thresholdPosition(view('above', 'at_or_below', '2026-04-01T00:00:00Z'), 'DE', '2026-03-01')).toBe('at_or_below');
    expect(thresholdPosition(view('at_or_below', 'at_or_below'), 'DE', '2026-03-01')).toBe('at_or_below');
  });

  it('is unknown for another establishment, another year, no check or an unknown comparison', () => {
    expect(thresholdPosition(view('at_or_below', 'at_or_below'), 'AT', '2026-03-01')).toBe('unknown');
    expect(thresholdPosition(view('at_or_below', 'at_or_below'), 'DE', '2025-03-01')).toBe('unknown');
    expect(thresholdPosition({ currentYear: 2026, checks: [] }, 'DE', '2026-03-01')).toBe('unknown');
    expect(thresholdPosition(view('unknown', 'at_or_below'), 'DE', '2026-03-01')).toBe('unknown');
    expect(thresholdPosition(view('above', 'unknown', '2026-04-01'), 'DE', '2026-03-01')).toBe('unknown');
  });
});
