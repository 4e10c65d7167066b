/**
 * The Union scheme return as the EU defines it (issue 21): the structure of the OSS return in Annex III
 * of Commission Implementing Regulation (EU) 2020/194 (Part 1, Union scheme), read with Art. 369g of
 * Directive 2006/112/EC. Per Member State of consumption: supplies from the Member State of
 * identification (goods / services, rate type, rate, taxable amount, VAT), supplies from fixed
 * establishments or dispatch States (keyed by that State and its identifier), corrections keyed by
 * original period, and the balance. Every Member-State file is rendered from this document, never from
 * the preview rows. Pure; amounts in minor units of the return currency.
 */
import type { UnionOssReturn } from './union-oss-return';

export type SupplyType = 'GOODS' | 'SERVICES';
export type SupplyLine = { supplyType: SupplyType; rateType: 'STANDARD' | 'REDUCED'; vatRateBps: number; taxableAmountMinor: bigint; vatAmountMinor: bigint };
/** A fixed establishment (services, Annex III 2c) or dispatch State (goods, 2d); its VAT or tax number when known (the service stores none). */
export type OtherStateSupplies = { memberState: string; vatIdentificationNumber: string | null; taxNumber: string | null; supplies: SupplyLine[] };
export type ConsumptionState = {
  memberState: string;
  fromIdentification: SupplyLine[];
  fromOtherStates: OtherStateSupplies[];
  corrections: { periodKey: string; vatAmountMinor: bigint }[];
  balance: { currentVatMinor: bigint; correctionVatMinor: bigint; balanceMinor: bigint; payableVatMinor: bigint };
};
export type OssReturnDocument = {
  periodKey: string;
  year: number;
  quarter: number;
  memberStateIdentification: string;
  returnCurrency: string;
  states: ConsumptionState[];
  totalPayableMinor: bigint;
  nilReturn: boolean;
};

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Builds the Annex III document from a computed return (its figures unchanged, only regrouped). */
export function ossReturnDocument(ret: UnionOssReturn): OssReturnDocument {
  const states: ConsumptionState[] = ret.balances
    .map((b) => {
      const rows = ret.rows.filter((r) => r.memberStateOfConsumption === b.memberStateOfConsumption);
      const line = (r: (typeof rows)[number]): SupplyLine => ({
        supplyType: r.section === '2a' || r.section === '2c' ? 'SERVICES' : 'GOODS',
        rateType: r.rateType,
        vatRateBps: r.vatRateBps,
        taxableAmountMinor: r.taxableAmountMinor,
        vatAmountMinor: r.vatAmountMinor,
      });
      const fromOther = new Map<string, OtherStateSupplies>();
      for (const r of rows.filter((x) => x.section === '2c' || x.section === '2d')) {
        const origin = r.originMemberState!;
        const entry = fromOther.get(origin) ?? { memberState: origin, vatIdentificationNumber: null, taxNumber: null, supplies: [] };
        entry.supplies.push(line(r));
        fromOther.set(origin, entry);
      }
      return {
        memberState: b.memberStateOfConsumption,
        fromIdentification: rows.filter((r) => r.section === '2a' || r.section === '2b').map(line),
        fromOtherStates: [...fromOther.values()].sort((x, y) => cmp(x.memberState, y.memberState)),
        corrections: ret.corrections.filter((c) => c.memberStateOfConsumption === b.memberStateOfConsumption).map((c) => ({ periodKey: c.originalPeriod, vatAmountMinor: c.vatAmountMinor })),
        balance: { currentVatMinor: b.currentVatMinor, correctionVatMinor: b.correctionVatMinor, balanceMinor: b.balanceMinor, payableVatMinor: b.payableVatMinor },
      };
    })
    .sort((x, y) => cmp(x.memberState, y.memberState));
  return {
    periodKey: ret.periodKey,
    year: Number(ret.periodKey.slice(0, 4)),
    quarter: Number(ret.periodKey.slice(6)),
    memberStateIdentification: ret.memberStateIdentification,
    returnCurrency: ret.returnCurrency,
    states,
    totalPayableMinor: ret.totals.payableVatMinor,
    nilReturn: ret.rows.length === 0 && ret.corrections.length === 0,
  };
}

/** The document as JSON (minor units), in the Annex III order. */
export function ossReturnJson(d: OssReturnDocument) {
  const supply = (s: SupplyLine) => ({ supply_type: s.supplyType, rate_type: s.rateType, vat_rate_bps: s.vatRateBps, taxable_amount_minor: s.taxableAmountMinor, vat_amount_minor: s.vatAmountMinor });
  return {
    document_kind: 'union_oss_return',
    basis: 'Annex III (Part 1) of Commission Implementing Regulation (EU) 2020/194; Art. 369g of Directive 2006/112/EC',
    period: { year: d.year, quarter: d.quarter, period_key: d.periodKey },
    member_state_identification: d.memberStateIdentification,
    return_currency: d.returnCurrency,
    nil_return: d.nilReturn,
    member_states_of_consumption: d.states.map((s) => ({
      member_state: s.memberState,
      supplies_from_member_state_of_identification: s.fromIdentification.map(supply),
      supplies_from_other_member_states: s.fromOtherStates.map((o) => ({ member_state: o.memberState, vat_identification_number: o.vatIdentificationNumber, tax_number: o.taxNumber, supplies: o.supplies.map(supply) })),
      corrections: s.corrections.map((c) => ({ original_period: c.periodKey, vat_amount_minor: c.vatAmountMinor })),
      balance: { current_vat_minor: s.balance.currentVatMinor, correction_vat_minor: s.balance.correctionVatMinor, balance_minor: s.balance.balanceMinor, payable_vat_minor: s.balance.payableVatMinor },
    })),
    total_payable_vat_minor: d.totalPayableMinor,
  };
}
