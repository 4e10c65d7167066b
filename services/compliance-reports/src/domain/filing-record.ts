/**
 * The filing record a filer gives when marking a return filed (issue 21): the portal's reference, the
 * day it was submitted and a note. Pure validation; every refusal is a 400 naming the field.
 */
import { hasControlCharacter } from '@vat/platform/control-characters';

export type FilingRecordInput = { submissionReference?: string; filedOn?: string; note?: string };
export type FilingRecordError = { code: 'invalid_submission_reference' | 'invalid_filed_on' | 'invalid_note'; detail: string };
type Checked = { ok: true; record: { submissionReference: string | null; filedOn: string | null; note: string | null } } | { ok: false; error: FilingRecordError };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written YYYY-MM-DD. */
export function isCalendarDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

export const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * `submission_reference` 1-100 characters without control characters (trimmed ends refused, so the
 * stored reference is the one typed); `filed_on` a day from the day after the period to today (UTC);
 * `note` up to 1000 characters on one line (no request text carries control characters).
 */
export function checkFilingRecord(input: FilingRecordInput, periodEnd: string, today: string): Checked {
  const fail = (code: FilingRecordError['code'], detail: string): Checked => ({ ok: false, error: { code, detail } });
  const ref = input.submissionReference;
  if (ref !== undefined) {
    if (ref.length === 0 || ref.length > 100) return fail('invalid_submission_reference', `submission_reference must be 1 to 100 characters (it has ${ref.length}).`);
    if (hasControlCharacter(ref)) return fail('invalid_submission_reference', 'submission_reference must not contain control characters (line breaks, tabs, …).');
    if (ref.trim() !== ref) return fail('invalid_submission_reference', 'submission_reference must not start or end with white space.');
  }
  const on = input.filedOn;
  if (on !== undefined) {
    if (!isCalendarDate(on)) return fail('invalid_filed_on', `${JSON.stringify(on)} is not a valid date: filed_on is YYYY-MM-DD.`);
    const first = dayAfter(periodEnd);
    if (on < first) return fail('invalid_filed_on', `filed_on ${on} is before ${first}: a return is submitted after its period ends (${periodEnd}).`);
    if (on > today) return fail('invalid_filed_on', `filed_on ${on} is after today (${today}, UTC).`);
  }
  const note = input.note;
  if (note !== undefined) {
    if (note.length > 1000) return fail('invalid_note', `note must be at most 1000 characters (it has ${note.length}).`);
    if (hasControlCharacter(note)) return fail('invalid_note', 'note must not contain control characters (line breaks, tabs, …): it is one line of text.');
  }
  return { ok: true, record: { submissionReference: ref ?? null, filedOn: on ?? null, note: note === undefined || note === '' ? null : note } };
}
