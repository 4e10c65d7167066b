/** Minor units as a major-unit decimal string with the currency's scale: (11900, 2) -> "119.00". */
export function minorToMajor(minor: bigint | string, minorUnits: number): string {
  const v = BigInt(minor);
  const neg = v < 0n;
  const digits = (neg ? -v : v).toString().padStart(minorUnits + 1, '0');
  const text = minorUnits === 0 ? digits : `${digits.slice(0, -minorUnits)}.${digits.slice(-minorUnits)}`;
  return neg ? `-${text}` : text;
}
