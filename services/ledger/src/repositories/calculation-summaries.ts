import type pg from 'pg';
import type { BusMessage } from '@vat/platform/bus';
import { calculationsRecorded } from '@vat/platform/calculation-recorded';
import { awaitProjected, PROJECTION_LAG_WAIT_MS } from '@vat/platform/reference-projection';
import { insertRows } from '@vat/platform/sql';
import type { LinkedCalculation } from '../domain/calculation-link';

const TABLE = '"ledger".calculation_summary';

/**
 * The ledger's projection of calculation's `CalculationRecorded`: what a supply event linked to a
 * calculation takes from it. Calculations are immutable, so each row is written once (`on conflict do nothing`):
 * a redelivered event changes nothing.
 */
export class CalculationSummaries {
  constructor(private readonly pool: pg.Pool) {}

  /** Applies a batch of `CalculationRecorded` (one statement; a group message's calculations each). */
  async apply(batch: readonly BusMessage[]): Promise<void> {
    const rows = calculationsRecorded(batch).map(({ event: e }) => {
      return {
        calculation_id: e.calculationId.toLowerCase(),
        account_id: e.accountId.toString(),
        country: e.country,
        currency: e.currency,
        net_amount_minor: e.netAmountMinor.toString(),
        vat_amount_minor: e.vatAmountMinor.toString(),
        vat_rate_bps: e.vatRateBps,
      };
    });
    const unique = [...new Map(rows.map((r) => [r.calculation_id, r])).values()];
    await insertRows(this.pool, TABLE, { calculation_id: 'uuid', account_id: 'bigint', country: 'text', currency: 'text', net_amount_minor: 'bigint', vat_amount_minor: 'bigint', vat_rate_bps: 'int' }, unique, 'on conflict (calculation_id) do nothing');
  }

  /** The account's calculations among `ids` (lower-case uuids); another account's id is simply absent. */
  async owned(accountId: bigint, ids: readonly string[]): Promise<Map<string, LinkedCalculation>> {
    const res = await this.pool.query<{ calculation_id: string; country: string; currency: string; net_amount_minor: string; vat_amount_minor: string; vat_rate_bps: number }>(
      `select calculation_id::text as calculation_id, country, currency, net_amount_minor::text as net_amount_minor, vat_amount_minor::text as vat_amount_minor, vat_rate_bps
         from ${TABLE} where account_id = $1 and calculation_id = any($2::uuid[])`,
      [accountId.toString(), ids],
    );
    return new Map(
      res.rows.map((r) => [r.calculation_id, { id: r.calculation_id, country: r.country, currency: r.currency, netAmountMinor: BigInt(r.net_amount_minor), vatAmountMinor: BigInt(r.vat_amount_minor), vatRateBps: r.vat_rate_bps }]),
    );
  }

  /**
   * The lag rule (docs/ledger.md): ids not in the projection yet may be calculations made a moment ago whose
   * `CalculationRecorded` is still on its way, so the lookup waits for them up to `maxWaitMs`; what is still
   * missing then is answered as missing (an unknown id, or another account's).
   */
  async ownedWaiting(accountId: bigint, ids: readonly string[], maxWaitMs = PROJECTION_LAG_WAIT_MS): Promise<Map<string, LinkedCalculation>> {
    let found = await this.owned(accountId, ids);
    if (found.size === ids.length) return found;
    await awaitProjected(async () => {
      found = await this.owned(accountId, ids);
      return found.size === ids.length ? found : undefined;
    }, maxWaitMs);
    return found;
  }
}
