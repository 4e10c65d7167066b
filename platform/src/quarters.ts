/** The first instant (UTC, ISO 8601) of a `YYYY-Qn` quarter and of the quarter after it: the quarter is `[start, next)`. */
export function quarterInstants(periodKey: string): [string, string] {
  const year = Number(periodKey.slice(0, 4));
  const q = Number(periodKey.slice(6));
  const at = (y: number, m: number) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-01T00:00:00Z`;
  return [at(year, q * 3 - 2), q === 4 ? at(year + 1, 1) : at(year, q * 3 + 1)];
}
