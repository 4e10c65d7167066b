import type { ServiceDeps } from '@vat/platform/service-module';
import { FxStore } from './reference/fx-store';
import { RateStore } from './reference/rate-store';

export type CalculationStores = { rates: RateStore; fx: FxStore };

const byDeps = new WeakMap<ServiceDeps, CalculationStores>();

/** One set of in-memory reference stores per running service instance. */
export function storesFor(deps: ServiceDeps): CalculationStores {
  let s = byDeps.get(deps);
  if (!s) byDeps.set(deps, (s = { rates: new RateStore(deps.orm), fx: new FxStore(deps.databaseUrl) }));
  return s;
}
