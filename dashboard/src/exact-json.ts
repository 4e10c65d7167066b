/** A string token or a number token of JSON text (strings first, so digits inside a string are never touched). */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const KEY = '$exact_integer';

const marked = (v: unknown): v is Record<typeof KEY, string> => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 1 && typeof (v as Record<string, unknown>)[KEY] === 'string';

/**
 * JSON.parse that keeps every integer beyond ±(2^53 - 1) exact, as a bigint (the API writes such sums as
 * their exact digits: docs/http-api.md); every other value is what JSON.parse gives. The browser's parser
 * would round them to the nearest double.
 */
export function parseExactJson<T>(text: string): T {
  const safe = text.replace(TOKEN, (t) => (t.startsWith('"') || /[.eE]/.test(t) || Number.isSafeInteger(Number(t)) ? t : `{"${KEY}":"${t}"}`));
  return JSON.parse(safe, (_key, value: unknown) => (marked(value) ? BigInt(value[KEY]) : value)) as T;
}
