import { describe, expect, it } from 'vitest';
import { accountantReport, CONVERSION_RULE, CSV_LAYOUT, exportCsv, exportJson, type ReturnContext } from './union-oss-documents';
import type { UnionOssReturn } from './union-oss-return';

// FR: 20 % 100.00 / 20.00, correction of 2024-Q4 -10.00 → balance 10.00. Taxable 100.00, payable 10.00.
const ret: UnionOssReturn = {
  periodKey: '2025-Q1',
  memberStateIdentification: 'DE',
  returnCurrency: 'EUR',
  rows: [{ section: '2a', memberStateOfConsumption: 'FR', originMemberState: null, supplyKind: 'services', vatRateBps: 2000, rateType: 'STANDARD', taxableAmountMinor: 10000n, vatAmountMinor: 2000n, sourceEventCount: 1 }],
  corrections: [{ memberStateOfConsumption: 'FR', originalPeriod: '2024-Q4', vatAmountMinor: -1000n, sourceEventCount: 1 }],
  balances: [{ memberStateOfConsumption: 'FR', currentVatMinor: 2000n, correctionVatMinor: -1000n, balanceMinor: 1000n, payableVatMinor: 1000n, includedInGrandTotal: true }],
  totals: { taxableAmountMinor: 10000n, currentVatMinor: 2000n, correctionVatMinor: -1000n, payableVatMinor: 1000n },
  warnings: [{ code: 'unsupported_supply_kind_excluded', reason: 'b2b_supply', review: 'informational', count: 1 }],
  totalSourceEventCount: 3,
  includedSourceEventCount: 2,
  excludedSourceEventCount: 1,
  reviewSourceEventCount: 0,
};
const context: ReturnContext = {
  ret,
  registrationId: 7n,
  periodStart: '2025-01-01',
  periodEnd: '2025-03-31',
  ledgerPosition: 42n,
  generatedAt: '2025-04-02T09:30:00.000Z',
  periodStatus: 'open',
  ratesUsed: [],
};

const MANIFEST = 'union_oss_quarterly_summary_preview,1,2025-04-02T09:30:00.000Z,union_oss,2025-Q1,DE,EUR,ecb_quarter_end_v1,union_oss_preview_v1,3,2,1,unsupported_supply_kind_excluded/b2b_supply/informational:1,42';

describe('the Union OSS CSV export (layout 2): the manifest fields on every row, the notes coded', () => {
  it('byte for byte: the same columns, short coded notes on each row', () => {
    expect(CSV_LAYOUT).toBe(2);
    expect(exportCsv(context, 'summary')).toBe(
      [
        'export_kind,export_version,generated_at,scheme_type,period_key,member_state_identification,return_currency,conversion_rule,scope_note,source_event_count_total,source_event_count_included,source_event_count_excluded,warnings,ledger_position,record_type,section,member_state_of_consumption,origin_member_state,supply_kind,vat_rate_pct,rate_type,original_period,taxable_amount,vat_amount,current_vat,correction_vat,balance,payable_vat,included_in_grand_total,source_event_count',
        `${MANIFEST},row,2a,FR,,services,20.00,STANDARD,,100.00,20.00,,,,,,1`,
        `${MANIFEST},correction,,FR,,,,,2024-Q4,,-10.00,,,,,,1`,
        `${MANIFEST},balance,,FR,,,,,,,,20.00,-10.00,10.00,10.00,true,`,
        `${MANIFEST},total,,,,,,,,100.00,,20.00,-10.00,,10.00,,`,
        '',
      ].join('\r\n'),
    );
  });

  it('no row carries the long text: the notes take 18 + 20 characters on a line instead of 279 + 219 (layout 1; quoted, more)', () => {
    for (const view of ['summary', 'country_breakdown'] as const) {
      for (const locked of [false, true]) {
        const lines = exportCsv(context, view, undefined, locked).trimEnd().split('\r\n');
        for (const line of lines.slice(1)) {
          // The row above is 252 characters; with layout 1's notes it was 252 - 38 + 498 = 712 and more.
          expect(line.length, line).toBeLessThan(300);
          expect(line).not.toContain('Directive');
          expect(line).toContain(`,ecb_quarter_end_v1,${locked ? 'union_oss_locked_v1' : 'union_oss_preview_v1'},`);
        }
      }
    }
    // The nil return: one manifest-only line, coded too.
    const nil = exportCsv({ ...context, ret: { ...ret, rows: [], corrections: [], balances: [], totalSourceEventCount: 0, includedSourceEventCount: 0, excludedSourceEventCount: 0, warnings: [] } }, 'summary').trimEnd().split('\r\n');
    expect(nil).toHaveLength(2);
    expect(nil[1]).toMatch(/,ecb_quarter_end_v1,union_oss_preview_v1,0,0,0,,42,nil_return,{15}$/);
  });

  it('the long text is once in the JSON manifests, beside its code', () => {
    for (const doc of [JSON.parse(exportJson(context, 'summary')), JSON.parse(accountantReport(context))]) {
      expect(doc.manifest).toMatchObject({ conversion_rule: CONVERSION_RULE, conversion_rule_code: 'ecb_quarter_end_v1', scope_note_code: 'union_oss_preview_v1' });
      expect(doc.manifest.scope_note).toMatch(/^Union OSS preview from committed supply events/);
    }
    const locked = JSON.parse(accountantReport({ ...context, periodStatus: 'locked' }, 'union_oss_accountant_report_locked', true));
    expect(locked.manifest).toMatchObject({ scope_note_code: 'union_oss_locked_v1' });
    expect(locked.manifest.scope_note).toMatch(/^Locked Union OSS snapshot/);
  });
});
