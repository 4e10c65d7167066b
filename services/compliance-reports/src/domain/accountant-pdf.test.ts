import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountantPdf } from './accountant-pdf';
import type { ReturnContext } from './union-oss-documents';
import type { UnionOssReturn } from './union-oss-return';

// FR: 20 % 100.00 / 20.00 and 5.5 % 200.00 / 11.00, correction of 2024-Q4 -10.00 → balance 21.00;
// EL goods from PL 24 % 100.00 / 24.00 → balance 24.00. Taxable 400.00, current VAT 55.00, payable 45.00.
const ret: UnionOssReturn = {
  periodKey: '2025-Q1',
  memberStateIdentification: 'DE',
  returnCurrency: 'EUR',
  rows: [
    { section: '2a', memberStateOfConsumption: 'FR', originMemberState: null, supplyKind: 'services', vatRateBps: 2000, rateType: 'STANDARD', taxableAmountMinor: 10000n, vatAmountMinor: 2000n, sourceEventCount: 1 },
    { section: '2a', memberStateOfConsumption: 'FR', originMemberState: null, supplyKind: 'services', vatRateBps: 550, rateType: 'REDUCED', taxableAmountMinor: 20000n, vatAmountMinor: 1100n, sourceEventCount: 1 },
    { section: '2d', memberStateOfConsumption: 'GR', originMemberState: 'PL', supplyKind: 'goods', vatRateBps: 2400, rateType: 'STANDARD', taxableAmountMinor: 10000n, vatAmountMinor: 2400n, sourceEventCount: 1 },
  ],
  corrections: [{ memberStateOfConsumption: 'FR', originalPeriod: '2024-Q4', vatAmountMinor: -1000n, sourceEventCount: 1 }],
  balances: [
    { memberStateOfConsumption: 'FR', currentVatMinor: 3100n, correctionVatMinor: -1000n, balanceMinor: 2100n, payableVatMinor: 2100n, includedInGrandTotal: true },
    { memberStateOfConsumption: 'GR', currentVatMinor: 2400n, correctionVatMinor: 0n, balanceMinor: 2400n, payableVatMinor: 2400n, includedInGrandTotal: true },
  ],
  totals: { taxableAmountMinor: 40000n, currentVatMinor: 5500n, correctionVatMinor: -1000n, payableVatMinor: 4500n },
  warnings: [{ code: 'unsupported_supply_kind_excluded', reason: 'b2b_supply', review: 'informational', count: 2 }],
  totalSourceEventCount: 6,
  includedSourceEventCount: 4,
  excludedSourceEventCount: 2,
  reviewSourceEventCount: 0,
};
const context: ReturnContext = {
  ret,
  registrationId: 7n,
  periodStart: '2025-01-01',
  periodEnd: '2025-03-31',
  ledgerPosition: 42n,
  generatedAt: '2025-04-02T09:30:00.000Z',
  periodStatus: 'locked',
  ratesUsed: [{ currency: 'USD', periodKey: '2025-Q1', requestedDate: '2025-03-31', rateDate: '2025-03-31', rate: '1.0815' }],
  filingRecord: null,
};

describe('printable accountant report (PDF)', () => {
  it('the same locked data gives the same bytes', async () => {
    const a = await accountantPdf(context, 'Accountant report');
    const b = await accountantPdf(context, 'Accountant report');
    expect(a.subarray(0, 5).toString()).toBe('%PDF-');
    expect(a.equals(b)).toBe(true);
  });

  // Needs poppler-utils (pdftotext, pdffonts); .ci/run installs it when missing.
  it('pdftotext finds the totals, balances, the correction, the exclusions and the rate; pdffonts shows the fonts embedded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oss-pdf-'));
    const file = join(dir, 'report.pdf');
    writeFileSync(file, await accountantPdf(context, 'Accountant report'));
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Union OSS 2025-Q1');
    expect(text).toContain('Payable VAT: 45.00 EUR');
    expect(text).toContain('Current VAT: 55.00');
    expect(text).toContain('Taxable amount: 400.00');
    expect(text).toContain('correction of 2024-Q4: VAT -10.00');
    expect(text).toContain('balance 21.00');
    expect(text).toContain('2d goods from PL, STANDARD 24.00 %: taxable 100.00, VAT 24.00');
    expect(text).toContain('unsupported_supply_kind_excluded / b2b_supply (informational): 2');
    expect(text).toContain('USD 2025-Q1: 1.0815');
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' }).trim().split('\n').slice(2);
    expect(fonts.length).toBeGreaterThan(0);
    // columns: name type encoding emb sub uni object ID; every font embedded
    for (const line of fonts) expect(line).toMatch(/DejaVuSans.*\s+yes\s+yes\s+yes\s+/);
  });
});
