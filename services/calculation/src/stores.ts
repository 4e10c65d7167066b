import pg from 'pg';
import type { ServiceDeps } from '@vat/platform/service-module';
import { FxStore } from './reference/fx-store';
import { RateStore } from './reference/rate-store';

/** Per running instance: in-memory reference stores and a plain pg pool for the bulk read paths. */
export type CalculationStores = { rates: RateStore; fx: FxStore; db(): pg.Pool; close(): Promise<void> };

const byDeps = new WeakMap<ServiceDeps, CalculationStores>();

export function storesFor(deps: ServiceDeps): CalculationStores {
  let s = byDeps.get(deps);
  if (!s) {
    let pool: pg.Pool | undefined;
    s = {
      rates: new RateStore(deps.orm),
      fx: new FxStore(deps.databaseUrl),
      db: () => {
        if (!pool) {
          pool = new pg.Pool({ connectionString: deps.databaseUrl, max: 4 });
          pool.on('error', (err) => deps.log.warn({ err: err.message }, 'idle pg connection failed'));
        }
        return pool;
      },
      close: async () => {
        await pool?.end();
        pool = undefined;
      },
    };
    byDeps.set(deps, s);
  }
  return s;
}
