import type { ConnectRouter } from '@connectrpc/connect';
import type { EntitySchema, MikroORM } from '@mikro-orm/postgresql';
import type { Migration } from '@mikro-orm/migrations';
import type { Logger } from 'pino';
import type { EventBus, Subscription } from './bus';
import type { Config, ServiceName } from './config';
import type { OutboxRelay } from './outbox';
import type { Clients } from './clients';

/** Everything a service's handlers may use; built once by the composition root. */
export type ServiceDeps = {
  config: Config;
  orm: MikroORM;
  /** The database the ORM talks to (for bulk paths that use a plain pg connection). */
  databaseUrl: string;
  bus: EventBus;
  relay: OutboxRelay;
  log: Logger;
  clients: Clients;
  now: () => Date;
};

export type ReadinessProbe = { name: string; ok: boolean; detail: string };

/** The shape every service exports so one composition root can run it in either mode. */
export type ServiceModule = {
  name: ServiceName;
  schema: string;
  entities: EntitySchema<any, any>[];
  migrations: (new (...args: any[]) => Migration)[];
  migrationsPath: string;
  /** Loads reference data into the service's schema; must be idempotent. */
  seed?: (deps: ServiceDeps) => Promise<void>;
  routes: (deps: ServiceDeps) => (router: ConnectRouter) => void;
  consumers?: (deps: ServiceDeps) => Subscription[];
  readiness?: (deps: ServiceDeps) => Promise<ReadinessProbe[]>;
  /** Releases what the module opened beyond the ORM (extra pools, timers). */
  stop?: (deps: ServiceDeps) => Promise<void>;
};
