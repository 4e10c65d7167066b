/**
 * The German BZSt "Mein BOP" OSS upload file (Union scheme, CSV version 2.0), rendered from the Annex III
 * document (never from the preview rows). Sources (see docs/filing-formats.md):
 * - ELSTER help `osseust_import` (version table: 2.0 = UTF-8 and no zero values; 1.1 = corrections) and the
 *   general BOP CSV rules (`allgemeine_csv-anleitung`: first line `#v` + newest version, no header line for
 *   imports with several record types);
 * - record types and column order as the filing peers write them: vendidero `CSVExporterBOP.php` (types 1
 *   and 3, `#v2.0`, `.` decimals with two places, `,` separator), Tim-Delta `oss_bop_bzst_csv` (types 1-5);
 * - portal refusals: a negative VAT for a country and rate (lexoffice KB), more than 6,000 rows (Taxdoo).
 * Corrections (record type 6) are not written: its column layout could not be cited; they are listed for
 * entry by hand in the portal instead.
 */
import { minorToMajor } from '@vat/platform/money';
import type { OssReturnDocument, SupplyLine } from './oss-return-document';

export const BZST_VERSION_LINE = '#v2.0';
export const BZST_MAX_ROWS = 6000;

/** A line the portal would refuse, with where it comes from. */
export type BzstProblem = { code: 'negative_vat' | 'zero_amount' | 'too_many_rows'; memberState?: string; originMemberState?: string; supplyType?: string; vatRatePct?: string; detail: string };
/** A correction the filer enters by hand in the portal (not in the file). */
export type ManualCorrection = { memberState: string; originalPeriod: string; vatAmount: string };
export type BzstFile = { ok: true; text: string; rowCount: number; manualCorrections: ManualCorrection[] } | { ok: false; problems: BzstProblem[] };

/** The portal's country code: Greece is EL (as in VAT numbers), every other State its ISO code. */
export const bzstCountry = (c: string) => (c === 'GR' ? 'EL' : c);
const amount = (minor: bigint) => minorToMajor(minor, 2);
const rate = (bps: number) => minorToMajor(BigInt(bps), 2);

/**
 * Renders the file, or the list of lines the portal would refuse. Only for a German MSI returning in EUR
 * (the caller checks the MSI). Lines whose taxable amount and VAT are both zero are left out (version 2.0
 * accepts no zero values; such a line declares nothing).
 */
export function bzstCsv(doc: OssReturnDocument): BzstFile {
  const lines: string[] = [BZST_VERSION_LINE];
  const problems: BzstProblem[] = [];
  let rows = 0;
  const check = (ms: string, s: SupplyLine, origin?: string): boolean => {
    const where = { memberState: bzstCountry(ms), ...(origin ? { originMemberState: bzstCountry(origin) } : {}), supplyType: s.supplyType, vatRatePct: rate(s.vatRateBps) };
    const at = `${where.memberState}${origin ? ` from ${where.originMemberState}` : ''} ${s.supplyType} ${where.vatRatePct} %`;
    if (s.taxableAmountMinor === 0n && s.vatAmountMinor === 0n) return false;
    if (s.vatAmountMinor < 0n) problems.push({ code: 'negative_vat', ...where, detail: `${at}: VAT ${amount(s.vatAmountMinor)} is negative; the portal refuses a negative VAT for a country and rate.` });
    else if (s.taxableAmountMinor === 0n || s.vatAmountMinor === 0n) problems.push({ code: 'zero_amount', ...where, detail: `${at}: taxable amount ${amount(s.taxableAmountMinor)} and VAT ${amount(s.vatAmountMinor)}; version 2.0 accepts no zero value.` });
    return true;
  };
  for (const st of doc.states) {
    const ms = bzstCountry(st.memberState);
    const body: string[] = [];
    for (const s of st.fromIdentification) {
      if (!check(st.memberState, s)) continue;
      body.push([s.supplyType === 'SERVICES' ? '2' : '3', ms, s.rateType, rate(s.vatRateBps), amount(s.taxableAmountMinor), amount(s.vatAmountMinor)].join(','));
    }
    for (const o of st.fromOtherStates) {
      for (const s of o.supplies) {
        if (!check(st.memberState, s, o.memberState)) continue;
        const id = [o.vatIdentificationNumber ?? '', o.taxNumber ?? ''];
        const tail = [s.rateType, rate(s.vatRateBps), amount(s.taxableAmountMinor), amount(s.vatAmountMinor)];
        // 4: services from a fixed establishment; 5: goods dispatched from another State, marketplace flag 1 = no.
        body.push((s.supplyType === 'SERVICES' ? ['4', ms, bzstCountry(o.memberState), ...id, ...tail] : ['5', ms, '1', bzstCountry(o.memberState), ...id, ...tail]).join(','));
      }
    }
    if (body.length === 0) continue;
    lines.push(`1,${ms}`, ...body);
    rows += body.length + 1;
  }
  if (rows > BZST_MAX_ROWS) problems.push({ code: 'too_many_rows', detail: `The file would have ${rows} rows; the portal accepts at most ${BZST_MAX_ROWS}.` });
  if (problems.length > 0) return { ok: false, problems };
  const manualCorrections = doc.states.flatMap((st) => st.corrections.map((c) => ({ memberState: bzstCountry(st.memberState), originalPeriod: c.periodKey, vatAmount: amount(c.vatAmountMinor) })));
  return { ok: true, text: lines.map((l) => `${l}\r\n`).join(''), rowCount: rows, manualCorrections };
}
