/**
 * The printable accountant report (issue 21): manifest, filing context, the return per Member State of
 * consumption with corrections and balances, totals, exclusions by reason and the ECB rates used. Made
 * with PDFKit and the DejaVu Sans TrueType fonts (embedded, subset); the same context gives the same bytes
 * (the document dates are the report's own `generated_at`, the file ID derives from them).
 */
import { createRequire } from 'node:module';
import { requireMinorUnits } from '@vat/platform/currencies';
import { minorToMajor } from '@vat/platform/money';
import { countryBreakdownOf, filingDueDate } from './union-oss-return';
import { CONVERSION_RULE, filingStatusOf, type ReturnContext } from './union-oss-documents';

const require = createRequire(import.meta.url);
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

/** Renders the report; resolves with the PDF bytes. PDFKit (and its font engine) is loaded by the first report, not at start. */
export async function accountantPdf(c: ReturnContext, title: string): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const r = c.ret;
  const mu = requireMinorUnits(r.returnCurrency);
  const m = (v: bigint) => minorToMajor(v, mu);
  const pct = (bps: number) => minorToMajor(BigInt(bps), 2);
  const at = new Date(c.generatedAt);
  const doc = new PDFDocument({ size: 'A4', margin: 48, font: FONT, compress: true, info: { Title: `${title} ${r.periodKey}`, Author: 'EU VAT service', Subject: 'Union OSS return', CreationDate: at, ModDate: at } });
  doc.registerFont('body', FONT);
  doc.registerFont('bold', FONT_BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (b: Buffer) => chunks.push(b));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const h = (text: string) => doc.moveDown(0.6).font('bold').fontSize(12).text(text).font('body').fontSize(9);
  const kv = (k: string, v: string) => doc.text(`${k}: ${v}`);
  const status = filingStatusOf(r);
  const overdue = c.periodStatus !== 'filed' && c.generatedAt.slice(0, 10) > filingDueDate(r.periodKey);

  doc.font('bold').fontSize(16).text(`${title} — Union OSS ${r.periodKey}`).font('body').fontSize(9);
  h('Manifest');
  kv('Member State of identification', r.memberStateIdentification);
  kv('Return currency', r.returnCurrency);
  kv('Period', `${c.periodStart} to ${c.periodEnd}`);
  kv('Registration', String(c.registrationId));
  kv('Ledger position', String(c.ledgerPosition));
  kv('Generated at', c.generatedAt);
  kv('Source events', `${r.totalSourceEventCount} (included ${r.includedSourceEventCount}, excluded ${r.excludedSourceEventCount})`);

  h('Filing context');
  kv('Due date', filingDueDate(r.periodKey));
  kv('Period status', c.periodStatus + (overdue ? ' (overdue)' : ''));
  kv('Status', `${status.status}: ${status.detail}`);
  if (c.filingRecord) {
    kv('Filed at', c.filingRecord.filedAt);
    kv('Submission reference', c.filingRecord.submissionReference ?? '—');
    kv('Filed on', c.filingRecord.filedOn ?? '—');
    if (c.filingRecord.note) kv('Note', c.filingRecord.note);
  }

  h('Return per Member State of consumption');
  if (r.rows.length === 0 && r.corrections.length === 0) doc.text('Nil return: no supply and no correction to declare.');
  for (const b of countryBreakdownOf(r)) {
    doc.moveDown(0.4).font('bold').text(`${b.memberStateOfConsumption}`).font('body');
    for (const x of b.rows) {
      const origin = x.originMemberState ? ` from ${x.originMemberState}` : '';
      doc.text(`  ${x.section} ${x.supplyKind}${origin}, ${x.rateType} ${pct(x.vatRateBps)} %: taxable ${m(x.taxableAmountMinor)}, VAT ${m(x.vatAmountMinor)} (${x.sourceEventCount} events)`);
    }
    for (const x of b.corrections) doc.text(`  correction of ${x.originalPeriod}: VAT ${m(x.vatAmountMinor)}`);
    doc.text(`  balance ${m(b.balanceMinor)} (current ${m(b.currentVatMinor)}, corrections ${m(b.correctionVatMinor)}), payable ${m(b.payableVatMinor)}`);
  }

  h('Totals');
  kv('Taxable amount', m(r.totals.taxableAmountMinor));
  kv('Current VAT', m(r.totals.currentVatMinor));
  kv('Correction VAT', m(r.totals.correctionVatMinor));
  kv('Payable VAT', `${m(r.totals.payableVatMinor)} ${r.returnCurrency}`);

  h('Exclusions by reason');
  if (r.warnings.length === 0) doc.text('None.');
  for (const w of r.warnings) doc.text(`${w.code} / ${w.reason} (${w.review}): ${w.count}`);

  h('ECB rates used');
  doc.text(CONVERSION_RULE);
  if (c.ratesUsed.length === 0) doc.text('None (every amount was in the return currency).');
  for (const x of c.ratesUsed) doc.text(`${x.currency} ${x.periodKey}: ${x.rate} (published ${x.rateDate}, asked for ${x.requestedDate})`);

  doc.end();
  return done;
}
