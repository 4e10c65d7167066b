import { createHash } from 'node:crypto';
import { hasControlCharacterBesidesLineBreaks } from '@vat/platform/control-characters';
import { csvRecords, CsvSyntaxError } from '@vat/platform/csv-reader';
import { cnParentCandidates, cpaParent, displayCode, levelOf, normalizeCode, type Scheme } from './codes';

/** One code as parsed from an official file. */
export type CatalogRow = {
  code: string;
  displayCode: string;
  level: string;
  parentCode: string | null;
  selfText: string;
  legalText: string;
  includes: string | null;
  excludes: string | null;
  conceptId: string;
  position: number;
};

type CatalogIssue = { line: number; error: string; detail: string };

type ParsedCatalog = {
  layout: string;
  rows: CatalogRow[];
  levelCounts: Record<string, number>;
  /** SHA-256 over the canonical code records, so a later change to the stored rows is detectable. */
  codesDigest: string;
};

export class CatalogFileError extends Error {
  constructor(readonly issues: CatalogIssue[]) {
    super(`the catalog file is refused: ${issues.length} problem(s); first: line ${issues[0]!.line} ${issues[0]!.error}: ${issues[0]!.detail}`);
  }
}

const MAX_ISSUES = 100;
const MAX_TEXT = 4000;

/** The Eurostat CSV layouts accepted, by scheme; the first header cell names the edition. */
const LAYOUTS: Record<Scheme, { name: string; header: (version: string) => string[] }> = {
  cn: { name: 'eurostat-cn-csv', header: (v) => [`CN ${v}`, 'SupText', 'URI', 'Name'] },
  cpa: { name: 'eurostat-cpa-csv', header: (v) => [`CPA ${v}`, 'Name', 'Include', 'Exclude', 'URI'] },
};

/** Level counts every complete edition has (a truncated or partial file is refused). */
const REQUIRED_LEVELS: Record<Scheme, string[]> = {
  cn: ['section', 'chapter', 'heading', 'hs_subheading', 'cn_subheading'],
  cpa: ['section', 'division', 'group', 'class', 'category', 'subcategory'],
};


function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CatalogFileError([{ line: 0, error: 'invalid_encoding', detail: 'the file is not valid UTF-8.' }]);
  }
}

/**
 * Parses and validates an official catalog file of one edition: the Eurostat CSV layout of the scheme
 * whose header names that edition, a valid code on every row for its level, no duplicates, every parent
 * present, texts present, and every level of the scheme represented. Any problem refuses the whole file.
 */
export function parseCatalogFile(scheme: Scheme, version: string, bytes: Uint8Array): ParsedCatalog {
  const text = decodeUtf8(bytes);
  const layout = LAYOUTS[scheme];
  const expected = layout.header(version);
  const issues: CatalogIssue[] = [];
  const issue = (line: number, error: string, detail: string) => {
    if (issues.length < MAX_ISSUES) issues.push({ line, error, detail });
  };
  const rows: CatalogRow[] = [];
  const lines: number[] = [];
  const seen = new Map<string, number>();
  let header = true;
  let section: string | null = null;
  try {
    for (const rec of csvRecords(text)) {
      if (header) {
        header = false;
        if (rec.cells.join(',') !== expected.join(',')) {
          throw new CatalogFileError([{ line: 1, error: 'unsupported_layout', detail: `expected the Eurostat header "${expected.join(',')}" for ${scheme.toUpperCase()} ${version}, found "${rec.cells.join(',').slice(0, 120)}".` }]);
        }
        continue;
      }
      if (rec.cells.length !== expected.length) {
        issue(rec.line, 'wrong_cell_count', `${rec.cells.length} cells, expected ${expected.length}.`);
        continue;
      }
      const row = scheme === 'cn' ? cnRow(rec.cells) : cpaRow(rec.cells);
      const code = normalizeCode(scheme, row.code);
      if (code !== row.code) {
        issue(rec.line, 'invalid_code', `"${row.code.slice(0, 30)}" is not an exact ${scheme.toUpperCase()} code in compact form.`);
        continue;
      }
      if (seen.has(code)) {
        issue(rec.line, 'duplicate_code', `${code} already appears on line ${seen.get(code)}.`);
        continue;
      }
      const texts = [row.selfText, row.legalText, row.includes ?? '', row.excludes ?? ''];
      if (!row.selfText.trim() || !row.legalText.trim()) issue(rec.line, 'missing_text', `${code} has no description.`);
      if (texts.some((t) => hasControlCharacterBesidesLineBreaks(t) || t.length > MAX_TEXT)) issue(rec.line, 'invalid_text', `${code} has a control character or a text over ${MAX_TEXT} characters.`);
      if (!conceptIdValid(scheme, code, row.conceptId)) issue(rec.line, 'invalid_concept_id', `${code} has the concept id "${row.conceptId.slice(0, 20)}".`);
      const level = levelOf(scheme, code);
      if (scheme === 'cn' && level === 'section') section = code;
      seen.set(code, rec.line);
      lines.push(rec.line);
      rows.push({ ...row, code, displayCode: displayCode(scheme, code), level, parentCode: scheme === 'cn' && level === 'chapter' ? section : null, position: rows.length + 1 });
    }
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new CatalogFileError([{ line: err.line, error: 'invalid_csv', detail: err.message }]);
    throw err;
  }
  if (header) throw new CatalogFileError([{ line: 1, error: 'empty_file', detail: 'the file has no header row.' }]);
  rows.forEach((row, i) => {
    if (row.level === 'section') return;
    if (scheme === 'cpa') {
      const parent = cpaParent(row.code);
      if (parent !== undefined && !seen.has(parent)) issue(lines[i]!, 'missing_parent', `${row.code} has no parent ${parent} in the file.`);
      row.parentCode = parent ?? null;
      return;
    }
    if (row.level === 'chapter') {
      if (row.parentCode === null) issue(lines[i]!, 'missing_parent', `chapter ${row.code} comes before any section.`);
      return;
    }
    const parent = cnParentCandidates(row.code).find((c) => seen.has(c));
    if (parent === undefined) issue(lines[i]!, 'missing_parent', `${row.code} has no parent (${cnParentCandidates(row.code).join(' or ')}) in the file.`);
    row.parentCode = parent ?? null;
  });
  const levelCounts: Record<string, number> = {};
  for (const level of REQUIRED_LEVELS[scheme]) levelCounts[level] = 0;
  for (const row of rows) levelCounts[row.level]!++;
  for (const level of REQUIRED_LEVELS[scheme]) if (levelCounts[level] === 0) issue(0, 'missing_level', `the file has no ${level} codes; an edition is imported whole.`);
  if (issues.length) throw new CatalogFileError(issues);
  return { layout: layout.name, rows, levelCounts, codesDigest: codesDigest(rows) };
}

function cnRow(cells: string[]): Omit<CatalogRow, 'displayCode' | 'level' | 'parentCode' | 'position'> {
  const [code, supText, uri, name] = cells as [string, string, string, string];
  return { code, selfText: supText, legalText: name, includes: null, excludes: null, conceptId: uri };
}

function cpaRow(cells: string[]): Omit<CatalogRow, 'displayCode' | 'level' | 'parentCode' | 'position'> {
  const [code, name, include, exclude, uri] = cells as [string, string, string, string, string];
  return { code, selfText: name, legalText: name, includes: include || null, excludes: exclude || null, conceptId: uri };
}

function conceptIdValid(scheme: Scheme, code: string, id: string): boolean {
  if (scheme === 'cpa') return id === code.replace(/\./g, '');
  if (!/^\d{12}$/.test(id)) return false;
  return !/^\d{4,}$/.test(code) || id === `${code.padEnd(10, '0')}80`;
}

/** SHA-256 of the rows in file order, each field length-prefixed (no separator can be forged). */
export function codesDigest(rows: readonly Omit<CatalogRow, 'position'>[]): string {
  const h = createHash('sha256');
  for (const r of rows) {
    for (const v of [r.code, r.displayCode, r.level, r.parentCode ?? '\u0000', r.selfText, r.legalText, r.includes ?? '\u0000', r.excludes ?? '\u0000', r.conceptId]) {
      h.update(`${v.length}:`);
      h.update(v);
    }
  }
  return h.digest('hex');
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
