/**
 * What this API calls a control character: Unicode's Cc, i.e. C0 (U+0000–U+001F), DEL (U+007F) and
 * C1 (U+0080–U+009F). The one definition every string input is judged by: the services' input guard,
 * their own text rules and the gateway's query and path parameters.
 */
export const CONTROL_CHARACTER = /\p{Cc}/u;

/** Control characters other than TAB, LF and CR, which multi-line reference texts (catalog files) may hold. */
const CONTROL_BESIDES_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u;

/** True when `s` holds a control character (C0, DEL or C1). */
export function hasControlCharacter(s: string): boolean {
  return CONTROL_CHARACTER.test(s);
}

/** True when multi-line text holds a control character other than a tab or a line break. */
export function hasControlCharacterBesidesLineBreaks(s: string): boolean {
  return CONTROL_BESIDES_LINE_BREAKS.test(s);
}
