import type pg from 'pg';

/** One rate a bench event may carry: consumption State `ci` (index), its slot of `n`, rate and class. */
export type BenchRate = { ci: number; country: string; slot: number; n: number; bps: number; type: string };

/**
 * The rates in force in every Member State over the whole of [from, to] (standard, reduced and super-reduced,
 * from the latest loaded rate release, the one the calculation service serves), so bench events carry
 * real rates and reach the return instead of being excluded as `rate_not_in_force`.
 */
export async function ratesInForceOver(pool: pg.Pool, from: string, to: string): Promise<BenchRate[]> {
  const res = await pool.query<{ country: string; bps: number; type: string }>(
    `select country, bps, type from (
       select distinct country, rate_bps as bps, rate_type as type from calculation.vat_rate
        where release_id = (select max(id) from calculation.reference_release where kind = 'vat_rates')
          and rate_type in ('standard', 'reduced', 'super_reduced') and valid_from <= $1 and (valid_to is null or valid_to > $2)) r
      order by country, (type = 'standard') desc, bps desc`,
    [from, to],
  );
  const byCountry = new Map<string, { bps: number; type: string }[]>();
  for (const r of res.rows) byCountry.set(r.country, [...(byCountry.get(r.country) ?? []), { bps: r.bps, type: r.type }]);
  if (byCountry.size !== 27) throw new Error(`rates in force over ${from}..${to} found for ${byCountry.size} Member States, not 27`);
  return [...byCountry].flatMap(([country, rates], ci) => rates.map((r, slot) => ({ ci, country, slot, n: rates.length, ...r })));
}
