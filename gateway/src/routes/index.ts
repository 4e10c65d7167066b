import type { RouteTable } from '../route';

/** Every resource's route table, in one list the gateway registers. */
export function allRoutes(): RouteTable {
  return [];
}
