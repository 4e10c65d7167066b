/** Exact-code rules of the two schemes: shapes, levels, display forms and catalog versions. Never guesses. */

export type Scheme = 'cn' | 'cpa';
export const SCHEMES: readonly Scheme[] = ['cn', 'cpa'];

export const isScheme = (s: unknown): s is Scheme => s === 'cn' || s === 'cpa';

const CN_SECTION = /^(X{0,3})(IX|IV|V?I{0,3})$/;
const CN_DIGITS = /^\d{2}(\d{2}(\d{2}(\d{2})?)?)?$/;
const CN_DISPLAY = /^\d{4} \d{2}( \d{2})?$/;
const CPA_SECTION = /^[A-U]$/;
const CPA_CODE = /^\d{2}(\.\d|\.\d{2}(\.\d{1,2})?)?$/;

/** The CN and CPA editions the service accepts (`catalog_version` as imported). */
export const CATALOG_VERSIONS: Record<Scheme, readonly string[]> = {
  cn: ['2021', '2022', '2023', '2024', '2025', '2026'],
  cpa: ['2.1', '2.2'],
};

const VERSION_SHAPE: Record<Scheme, RegExp> = { cn: /^(19|20)\d{2}$/, cpa: /^\d{1,2}\.\d{1,2}$/ };

/** Whether the text has the shape of an edition of the scheme (a CN year, a CPA version). */
export function isCatalogVersionShape(scheme: Scheme, version: string): boolean {
  return VERSION_SHAPE[scheme].test(version);
}

/**
 * The normalized form of an exact code, or undefined when it is not of the scheme's shape. CN: 2, 4, 6
 * or 8 digits (spaces as in the display form `0101 21 00` are dropped) or a section numeral; CPA: a
 * section letter or dot-separated digit groups (`01`, `01.1`, `01.11`, `01.11.1`, `01.11.11`).
 */
export function normalizeCode(scheme: Scheme, code: string): string | undefined {
  if (code.length > 24) return undefined;
  if (scheme === 'cn') {
    if (code !== '' && CN_SECTION.test(code)) return code;
    if (CN_DIGITS.test(code)) return code;
    return CN_DISPLAY.test(code) ? code.replace(/ /g, '') : undefined;
  }
  if (CPA_SECTION.test(code)) return code;
  return CPA_CODE.test(code) ? code : undefined;
}

const CN_LEVELS: Record<number, string> = { 2: 'chapter', 4: 'heading', 6: 'hs_subheading', 8: 'cn_subheading' };
const CPA_LEVELS: Record<number, string> = { 2: 'division', 4: 'group', 5: 'class', 7: 'category', 8: 'subcategory' };

/** The level name of a normalized code. */
export function levelOf(scheme: Scheme, code: string): string {
  if (scheme === 'cn') return /^\d/.test(code) ? CN_LEVELS[code.length]! : 'section';
  return /^\d/.test(code) ? CPA_LEVELS[code.length]! : 'section';
}

/** `0101 21 00`, `0101 29`, `0101`, `01`, or the code itself. */
export function displayCode(scheme: Scheme, code: string): string {
  if (scheme !== 'cn' || code.length <= 4 || !/^\d/.test(code)) return code;
  return code.length === 6 ? `${code.slice(0, 4)} ${code.slice(4)}` : `${code.slice(0, 4)} ${code.slice(4, 6)} ${code.slice(6)}`;
}

/**
 * The codes a CN code may hang under, nearest first. An undivided heading is published as `020500` or
 * `04090000` under its chapter, and an undivided HS subheading as `01012100` under its heading, so an
 * 8-digit code needs its 6-digit parent unless it ends in `00` (then its heading) or `0000` (then its chapter).
 */
export function cnParentCandidates(code: string): string[] {
  if (code.length === 8) {
    const out = [code.slice(0, 6)];
    if (code.endsWith('00')) out.push(code.slice(0, 4));
    if (code.endsWith('0000')) out.push(code.slice(0, 2));
    return out;
  }
  if (code.length === 6) return code.endsWith('00') ? [code.slice(0, 4), code.slice(0, 2)] : [code.slice(0, 4)];
  if (code.length === 4) return [code.slice(0, 2)];
  return [];
}

/** The parent of a CPA code (`01.11.11` → `01.11.1` → `01.11` → `01.1` → `01`); divisions and sections have none. */
export function cpaParent(code: string): string | undefined {
  if (!/^\d/.test(code) || code.length === 2) return undefined;
  return code.slice(0, -1).replace(/\.$/, '');
}
