/**
 * JSON text in which bigints are written as exact integers: the one policy for int64 values on the wire
 * (the spec types them `integer`), so a value beyond 2^53 is neither rounded, nor a string, nor refused.
 */
export function jsonText(value: unknown): string {
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `\u0000big:${v.toString()}` : v));
  return text.replace(/"\\u0000big:(-?\d+)"/g, '$1');
}
