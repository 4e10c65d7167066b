import { describe, expect, it } from 'vitest';
import { aggregateStatus, openSalesVat, unimplementedComponents, type Component } from './decision';

const settled = (kind: Component['kind'], amount: Component['amount_status'] = 'calculated'): Component => ({ ...openSalesVat('EUR', 'incomplete', []), kind, treatment_status: 'resolved', amount_status: amount });
const open = (kind: Component['kind'], status: 'incomplete' | 'unsupported' | 'conflicting'): Component => ({ ...openSalesVat('EUR', status, ['x']), kind });

describe('aggregate status of a governed decision', () => {
  it('is complete only when all four obligations are settled (calculated, proven zero or proven not applicable)', () => {
    expect(aggregateStatus([settled('sales_vat'), settled('import_vat', 'not_applicable'), settled('customs_duty', 'not_applicable'), settled('fees', 'zero_by_treatment')])).toBe('complete');
    expect(aggregateStatus([settled('sales_vat'), settled('import_vat', 'not_applicable'), settled('customs_duty', 'not_applicable'), open('fees', 'unsupported')])).toBe('partial');
  });

  it('is partial with one settled obligation and the initial release’s three unsupported ones', () => {
    expect(aggregateStatus([settled('sales_vat'), ...unimplementedComponents('EUR', 'DE')])).toBe('partial');
  });

  it('is conflicting whenever a component conflicts, even beside a settled one', () => {
    expect(aggregateStatus([open('sales_vat', 'conflicting'), ...unimplementedComponents('EUR', 'DE')])).toBe('conflicting');
    expect(aggregateStatus([settled('sales_vat'), open('import_vat', 'conflicting'), open('customs_duty', 'unsupported'), open('fees', 'unsupported')])).toBe('conflicting');
  });

  it('is incomplete when none is settled and one needs facts or authority, else unsupported', () => {
    expect(aggregateStatus([open('sales_vat', 'incomplete'), ...unimplementedComponents('EUR', 'DE')])).toBe('incomplete');
    expect(aggregateStatus([open('sales_vat', 'unsupported'), ...unimplementedComponents('EUR', 'DE')])).toBe('unsupported');
  });

  it('never counts a resolved treatment without a settled amount as settled', () => {
    expect(aggregateStatus([{ ...settled('sales_vat'), amount_status: 'incomplete' }, ...unimplementedComponents('EUR', 'DE')])).toBe('incomplete');
  });
});
