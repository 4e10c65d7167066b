const DAY_MS = 86_400_000;

/**
 * The checks that can stand as evidence of a number's status at a tax point: those made on the tax
 * point's (UTC) day or in the `reuseDays` days before it, the same window in which a check is reused.
 * A check made after the tax point's day says nothing about the customer's status when the supply took place.
 */
export function evidenceWindow(taxPointDate: string, reuseDays: number): { from: Date; until: Date } {
  const day = Date.parse(`${taxPointDate}T00:00:00Z`);
  return { from: new Date(day - reuseDays * DAY_MS), until: new Date(day + DAY_MS) };
}
