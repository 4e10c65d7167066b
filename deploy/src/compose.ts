import type { ConnectRouter, Interceptor, Transport } from '@connectrpc/connect';
import { createServer } from 'node:http2';
import Fastify, { type FastifyInstance } from 'fastify';
import { fastifyConnectPlugin } from '@connectrpc/connect-fastify';
import { createH2Transport, unaryFastPath } from '@vat/platform/h2-transport';
import { create } from '@bufbuild/protobuf';
import type { Logger } from 'pino';
import { ReadinessService, GetReadinessResponseSchema } from '@vat/gen/vat/platform/v1/readiness_service_pb';
import { createClients, internalTokenInterceptor, lazyTransport } from '@vat/platform/clients';
import { createDirectTransport } from '@vat/platform/direct-transport';
import type { Config, ServiceName } from '@vat/platform/config';
import { createOrm, databaseProbes, migrate, type ServiceOrm } from '@vat/platform/db';
import { READINESS_PROBE_MS, withDeadline } from '@vat/platform/deadline';
import { databaseFaultInterceptor } from '@vat/platform/db-faults';
import { peerFaultInterceptor } from '@vat/platform/peer-faults';
import type { EventBus } from '@vat/platform/bus';
import { InProcessBus } from '@vat/platform/bus';
import { DEFAULT_OUTBOX_RETENTION, OutboxRelay } from '@vat/platform/outbox';
import { inputGuardInterceptor } from '@vat/platform/input-guard';
import { principalInterceptor } from '@vat/platform/principal';
import { observePool, observeSchema, unobservePool } from '@vat/platform/metrics';
import { rpcClientTelemetryInterceptor, rpcServerTelemetryInterceptor } from '@vat/platform/rpc-telemetry';
import { stopwatch } from '@vat/platform/stopwatch';
import type { AnyServiceModule, ReadinessProbe, ServiceDeps } from '@vat/platform/service-module';
import type { BackgroundTask } from '@vat/platform/periodic-task';

export type RunningService = {
  module: AnyServiceModule;
  deps: ServiceDeps;
  /** The module's background tasks; `startRelays` starts them. */
  background: BackgroundTask[];
  routes: (router: ConnectRouter) => void;
  readiness(): Promise<{ ready: boolean; checks: ReadinessProbe[] }>;
  /** Begins the module's background work (`startRelays` calls it once the bus is open). */
  started(): void;
  stop(): Promise<void>;
};

/**
 * The process's event bus: JetStream when NATS_URL is set, else the in-process bus. The NATS client's code is loaded
 * only for the first (≈ 15 ms of a restart's main thread that `npm start` never needs).
 */
export async function createBus(config: Config, log: Logger, name: string): Promise<EventBus> {
  if (!config.natsUrl) return new InProcessBus();
  const { JetStreamBus } = await import('@vat/platform/jetstream-bus');
  return new JetStreamBus(config.natsUrl, name, log);
}

/** A service's ORM (metadata discovered; MikroORM connects on its first query). */
export function serviceOrm(mod: AnyServiceModule, config: Config, databaseUrl: string, poolMax: number): Promise<ServiceOrm> {
  return createOrm({ clientUrl: databaseUrl, schema: mod.schema, entities: mod.entities, migrations: mod.migrations, migrationsPath: mod.migrationsPath, poolMax, lockWaitMs: config.databaseWaitMs, namedStatements: config.databasePreparedStatements, idleMs: config.databaseIdleMs });
}

/**
 * Creates the ORM, applies migrations, seeds reference data and subscribes consumers; `startRelays` starts its relay.
 * The service gets clients only for the services its module `uses`, over `transportFor`.
 * `prepared`: the service's ORM made beforehand by {@link serviceOrm} for the same database (`npm start` makes them
 * while the embedded database opens).
 */
export async function startService(mod: AnyServiceModule, config: Config, databaseUrl: string, bus: EventBus, log: Logger, poolMax: number, transportFor: (name: ServiceName) => Transport, prepared?: ServiceOrm): Promise<RunningService> {
  const slog = log.child({ service: mod.name });
  let elapsed = stopwatch();
  const orm = prepared ?? (await serviceOrm(mod, config, databaseUrl, poolMax));
  slog.info({ ...elapsed(), prepared: prepared !== undefined }, 'ORM initialised');
  let observed: ServiceDeps['pool'] | undefined;
  const open = async () => {
    elapsed = stopwatch();
    const applied = await migrate(orm, databaseUrl, mod.schema);
    slog.info({ ...elapsed(), applied }, applied.length ? 'migrations applied' : 'migrations up to date');
    const pool = (await orm.em.getConnection().getNativeClient()) as ServiceDeps['pool'];
    observePool(mod.name, (observed = pool));
    observeSchema(mod.schema, pool, mod.schema, mod.entities.map((e) => e.meta.className));
    const relay = new OutboxRelay(pool, mod.schema, bus, slog, config.outboxPollMs, undefined, { ...DEFAULT_OUTBOX_RETENTION, keepMs: config.outboxRetentionHours * 3600_000 });
    const clients = createClients(transportFor, mod.uses, mod.name);
    const deps: ServiceDeps = mod.context({ config, orm, pool, databaseUrl, bus, relay, log: slog, clients, now: () => new Date() });
    elapsed = stopwatch();
    await mod.seed?.(deps);
    if (mod.seed) slog.info(elapsed(), 'reference data ready');
    for (const sub of mod.consumers?.(deps) ?? []) await bus.subscribe(sub);
    return { pool, relay, deps, background: mod.background?.(deps) ?? [] };
  };
  const { pool, relay, deps, background } = await open().catch(async (err: unknown) => {
    // A service that fails to start leaves no pool behind (the process goes on to stop, or to fail, cleanly).
    if (observed) unobservePool(observed);
    await orm.close().catch(() => undefined);
    throw err;
  });
  const readiness = async () => {
    const checks: ReadinessProbe[] = await databaseProbes(orm, mod.name);
    const db = checks[0]!.ok;
    if (config.natsUrl) checks.push({ name: `${mod.name}.nats`, ok: bus.connected(), detail: bus.connected() ? 'connected' : 'not connected' });
    if (db && mod.readiness) {
      const own = withDeadline(mod.readiness(deps), READINESS_PROBE_MS, `${mod.name} reference data`);
      checks.push(...(await own.catch((e: Error) => [{ name: `${mod.name}.reference_data`, ok: false, detail: e.message }])));
    }
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
    background,
    routes,
    readiness,
    started: () => mod.started?.(deps),
    async stop() {
      for (const t of background) await t.stop().catch(() => undefined);
      await relay.stop();
      unobservePool(pool);
      await mod.stop?.(deps).catch(() => undefined);
      await orm.close();
    },
  };
}

/** How long a one-process start waits for the events pending at start to reach their consumers. */
const START_DRAIN_MS = 60_000;

/**
 * Opens the bus and starts every relay. Call it once every consumer of the process is subscribed:
 * events pending in an outbox at start-up then reach them instead of a bus with no subscriber. With the
 * in-process bus (every service in this process) it also waits until what the outboxes held at start has
 * been applied by its consumers, so the projections hold the reference data seeded at start (the ledger's
 * rates and ECB days, …) before the process listens. Distributed, a service whose projection is still
 * empty says so in its readiness, waits under the lag rule and asks calculation for it (`started`:
 * platform/src/reference-request.ts).
 */
export async function startRelays(bus: EventBus, services: RunningService[], opts: { soleRelay?: boolean } = {}): Promise<void> {
  bus.open();
  // With the embedded database this process is the only relay of each outbox (the data directory's
  // socket is exclusive): its relays read rows without claiming them, and claims still held are a killed
  // predecessor's, so they are taken back now instead of after their lease (every outbox's at once).
  // Elsewhere other replicas may hold live claims; leases expire.
  if (opts.soleRelay) await Promise.all(services.map((s) => s.deps.relay.takeSole()));
  for (const s of services) s.deps.relay.start();
  // Background work writes to the outboxes: it starts once their relays run.
  for (const s of services) for (const t of s.background) t.start();
  if (bus instanceof InProcessBus) await Promise.all(services.map((s) => s.deps.relay.flush(START_DRAIN_MS)));
  for (const s of services) s.started();
}

/**
 * The server-side interceptors every service runs, whatever the transport (HTTP/2, router, direct).
 * The internal token guards a network boundary; calls inside one process do not cross one.
 */
export function serviceInterceptors(config: Config, inProcess = false): Interceptor[] {
  return [rpcServerTelemetryInterceptor(), principalInterceptor(inProcess ? undefined : config.internalToken), inputGuardInterceptor(), databaseFaultInterceptor()];
}

/**
 * In-process transports (`npm start`): the gateway and services call each other's implementations
 * directly (no framing, no protobuf encoding) through the same interceptors; resolved on first call.
 */
export function directTransports(running: RunningService[], config: Config): (name: ServiceName) => Transport {
  return inProcessTransports(running, (routes) => createDirectTransport(routes, { interceptors: serviceInterceptors(config, true) }));
}

/** One transport per service running in this process, made by `make` on the first call to it. */
export function inProcessTransports(running: RunningService[], make: (routes: RunningService['routes']) => Transport): (name: ServiceName) => Transport {
  const cache = new Map<ServiceName, Transport>();
  return (name) => {
    let t = cache.get(name);
    if (!t) {
      t = lazyTransport(() => {
        const r = running.find((s) => s.module.name === name);
        if (!r) throw new Error(`service ${name} is not running in this process`);
        return make(r.routes);
      });
      cache.set(name, t);
    }
    return t;
  };
}

/**
 * A service process's RPC server (HTTP/2): unary calls in the Connect protocol's binary form served by
 * `unaryFastPath`, everything else (streams, JSON, compression, malformed deadlines, unknown paths) by Connect's
 * Fastify plugin with the same routes and interceptors.
 */
export async function rpcServer(routes: (router: ConnectRouter) => void, interceptors: Interceptor[]): Promise<FastifyInstance> {
  const fast = unaryFastPath(routes, interceptors);
  const app = Fastify({
    http2: true,
    logger: false,
    // The server Fastify would make for `http2: true` (its session and connection timeouts), with the fast path in front.
    serverFactory: (handler, options) => {
      const server = createServer((req, res) => {
        if (!fast(req, res)) handler(req as never, res as never);
      });
      const timeouts = options as { http2SessionTimeout?: number; connectionTimeout?: number };
      server.on('session', (session) => session.setTimeout(timeouts.http2SessionTimeout ?? 72_000, () => session.close()));
      server.setTimeout(timeouts.connectionTimeout ?? 0);
      return server;
    },
  });
  await app.register(fastifyConnectPlugin, { routes, interceptors });
  return app as unknown as FastifyInstance;
}

/** HTTP/2 Connect transports to service processes (distributed). */
export function networkTransports(config: Config): (name: ServiceName) => Transport {
  const cache = new Map<ServiceName, Transport>();
  return (name) => {
    let t = cache.get(name);
    if (!t) {
      // createH2Transport: unary calls written out on node:http2 (connect-node's client spent twice the CPU per
      // call), streams through connect-node; neither offers compression (the calls stay inside the deployment's
      // network; compressing the calculation's answer cost each side 5-6 % of its CPU). docs/benchmarks.md.
      t = createH2Transport({ baseUrl: config.serviceUrls[name], interceptors: [rpcClientTelemetryInterceptor(), peerFaultInterceptor(), internalTokenInterceptor(config.internalToken)] });
      cache.set(name, t);
    }
    return t;
  };
}


