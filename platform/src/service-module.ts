import type { ConnectRouter } from '@connectrpc/connect';
import type { EntitySchema, MikroORM } from '@mikro-orm/postgresql';
import type { Migration } from '@mikro-orm/migrations';
import type { Logger } from 'pino';
import type pg from 'pg';
import type { EventBus, Subscription } from './bus';
import type { Config, ServiceName } from './config';
import type { OutboxRelay } from './outbox';
import type { BackgroundTask } from './periodic-task';
import type { ClientsOf } from './clients';

/**
 * Everything a service's handlers may use from the platform; built once by the composition root.
 * `S` are the services it calls: it holds their clients and no others.
 */
export type ServiceDeps<S extends ServiceName = never> = {
  config: Config;
  orm: MikroORM;
  /** The service's one connection pool (the ORM's own): raw SQL on hot and bulk paths goes here. */
  pool: pg.Pool;
  /** The database URL (migrations take their advisory lock on a dedicated session). */
  databaseUrl: string;
  bus: EventBus;
  relay: OutboxRelay;
  log: Logger;
  clients: ClientsOf<S>;
  now: () => Date;
};

export type ReadinessProbe = { name: string; ok: boolean; detail: string };

/**
 * The shape every service exports so one composition root can run it in either mode. `context`
 * builds the service's own deps once (platform deps plus its repositories and stores); every other
 * hook and every handler receives that object.
 */
export type ServiceModule<D extends ServiceDeps<S>, S extends ServiceName = never> = {
  name: ServiceName;
  /**
   * The services whose RPCs this one calls (handlers, consumers, start-up): only their clients are
   * built. The declared graph is checked in deploy/src/service-graph.test.ts.
   */
  uses: readonly S[];
  schema: string;
  entities: EntitySchema<any, any>[];
  migrations: (new (...args: any[]) => Migration)[];
  migrationsPath: string;
  context: (deps: ServiceDeps<S>) => D;
  /** Loads reference data into the service's schema; must be idempotent. */
  seed?: (deps: D) => Promise<void>;
  routes: (deps: D) => (router: ConnectRouter) => void;
  consumers?: (deps: D) => Subscription[];
  /** Periodic work of its own (not driven by a request or an event), started after the relays, stopped first. */
  background?: (deps: D) => BackgroundTask[];
  readiness?: (deps: D) => Promise<ReadinessProbe[]>;
  /** Begins background work that publishes to the bus, once it is open and the relays run; `stop` ends it. */
  started?: (deps: D) => void;
  /** Releases what the module opened beyond the ORM (timers, caches). */
  stop?: (deps: D) => Promise<void>;
};

/** A module of any service, as the composition root holds them. */
export type AnyServiceModule = ServiceModule<any, any>;

/**
 * Declares a service module. `uses` alone decides which clients the deps hold (the context's deps
 * type cannot widen it), so a call to a service not in `uses` does not compile.
 */
export function serviceModule<D extends ServiceDeps<S>, const S extends ServiceName = never>(mod: Omit<ServiceModule<D, S>, 'context'> & { context: (deps: ServiceDeps<NoInfer<S>>) => D }): ServiceModule<D, S> {
  return mod;
}

/** Binds handlers of the shape `(deps, req, ctx)` to a service's deps, for `router.service`. */
export function bindHandlers<D, H extends Record<string, (deps: D, req: any, ctx: any) => any>>(
  deps: D,
  handlers: H,
): { [K in keyof H]: (req: Parameters<H[K]>[1], ctx: Parameters<H[K]>[2]) => ReturnType<H[K]> } {
  return Object.fromEntries(Object.entries(handlers).map(([name, h]) => [name, (req: unknown, ctx: unknown) => h(deps, req, ctx)])) as never;
}
