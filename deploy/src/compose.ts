import { createRouterTransport, type ConnectRouter, type Interceptor, type Transport } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { create } from '@bufbuild/protobuf';
import type { Logger } from 'pino';
import { ReadinessService, GetReadinessResponseSchema } from '@vat/gen/vat/platform/v1/readiness_service_pb';
import { createClients, internalTokenInterceptor, type Clients } from '@vat/platform/clients';
import type { Config, ServiceName } from '@vat/platform/config';
import { createOrm, databaseAnswers, migrate, pendingMigrations } from '@vat/platform/db';
import type { EventBus } from '@vat/platform/bus';
import { InProcessBus } from '@vat/platform/bus';
import { JetStreamBus } from '@vat/platform/jetstream-bus';
import { OutboxRelay } from '@vat/platform/outbox';
import { Code, ConnectError } from '@vat/platform/rpc-errors';
import { PRINCIPAL_HEADERS } from '@vat/platform/principal';
import type { ReadinessProbe, ServiceDeps, ServiceModule } from '@vat/platform/service-module';
import { MODULES } from './modules';

export type RunningService = {
  module: ServiceModule;
  deps: ServiceDeps;
  routes: (router: ConnectRouter) => void;
  readiness(): Promise<{ ready: boolean; checks: ReadinessProbe[] }>;
  stop(): Promise<void>;
};

export function createBus(config: Config, log: Logger, name: string): EventBus {
  return config.natsUrl ? new JetStreamBus(config.natsUrl, name, log) : new InProcessBus();
}

/** Creates the ORM, applies migrations, seeds reference data, subscribes consumers and starts the relay. */
export async function startService(mod: ServiceModule, config: Config, databaseUrl: string, bus: EventBus, log: Logger, poolMax: number): Promise<RunningService> {
  const slog = log.child({ service: mod.name });
  const orm = await createOrm({ clientUrl: databaseUrl, schema: mod.schema, entities: mod.entities, migrations: mod.migrations, migrationsPath: mod.migrationsPath, poolMax });
  const applied = await migrate(orm, databaseUrl, mod.schema);
  if (applied.length) slog.info({ applied }, 'migrations applied');
  const relay = new OutboxRelay(orm, mod.schema, bus, slog, config.outboxPollMs);
  const deps: ServiceDeps = { config, orm, databaseUrl, bus, relay, log: slog, clients: undefined as unknown as Clients, now: () => new Date() };
  await mod.seed?.(deps);
  for (const sub of mod.consumers?.(deps) ?? []) await bus.subscribe(sub);
  relay.start();
  const readiness = async () => {
    const checks: ReadinessProbe[] = [];
    const db = await databaseAnswers(orm);
    checks.push({ name: `${mod.name}.database`, ok: db, detail: db ? 'answers' : 'not reachable' });
    const pending = db ? await pendingMigrations(orm).catch(() => ['unknown']) : ['unknown'];
    checks.push({ name: `${mod.name}.migrations`, ok: pending.length === 0, detail: pending.length ? `pending: ${pending.join(', ')}` : 'applied' });
    if (config.natsUrl) checks.push({ name: `${mod.name}.nats`, ok: bus.connected(), detail: bus.connected() ? 'connected' : 'not connected' });
    if (db && mod.readiness) checks.push(...(await mod.readiness(deps).catch((e: Error) => [{ name: `${mod.name}.reference_data`, ok: false, detail: e.message }])));
    return { ready: checks.every((c) => c.ok), checks };
  };
  const routes = (router: ConnectRouter) => {
    mod.routes(deps)(router);
    router.service(ReadinessService, {
      async getReadiness() {
        const r = await readiness();
        return create(GetReadinessResponseSchema, { service: mod.name, ready: r.ready, checks: r.checks });
      },
    });
  };
  return {
    module: mod,
    deps,
    routes,
    readiness,
    async stop() {
      await relay.stop();
      await mod.stop?.(deps).catch(() => undefined);
      await orm.close();
    },
  };
}

/** Server-side check that a call came from the gateway (distributed mode with INTERNAL_TOKEN). */
export function requireInternalToken(token: string | undefined): Interceptor {
  return (next) => async (req) => {
    if (token && req.header.get(PRINCIPAL_HEADERS.token) !== token) throw new ConnectError('caller is not the gateway', Code.Unauthenticated);
    return next(req);
  };
}

/** In-process transports (`npm start`): each service behind its own router transport. */
export function routerTransports(running: RunningService[]): (name: ServiceName) => Transport {
  const map = new Map<ServiceName, Transport>();
  for (const r of running) map.set(r.module.name, createRouterTransport(r.routes));
  return (name) => {
    const t = map.get(name);
    if (!t) throw new Error(`service ${name} is not running in this process`);
    return t;
  };
}

/** HTTP/2 Connect transports to service processes (distributed). */
export function networkTransports(config: Config): (name: ServiceName) => Transport {
  const cache = new Map<ServiceName, Transport>();
  return (name) => {
    let t = cache.get(name);
    if (!t) {
      t = createConnectTransport({ baseUrl: config.serviceUrls[name], httpVersion: '2', interceptors: [internalTokenInterceptor(config.internalToken)] });
      cache.set(name, t);
    }
    return t;
  };
}

export function wireClients(running: RunningService[], transportFor: (name: ServiceName) => Transport): Clients {
  const clients = createClients(transportFor);
  for (const r of running) r.deps.clients = clients;
  return clients;
}

export { MODULES };
