import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { DEFAULT_SERVICE_PORTS, SERVICE_NAMES, type Config, type ServiceName } from '@vat/platform/config';
import { readOrCreateKeyFile } from '@vat/platform/crypto';
import type { EmbeddedPostgres } from '@vat/platform/embedded-pg';
import { startEmbeddedDatabase, type StartedEmbedded } from './embedded-database';
import type { PreparedGateway, RunningGateway } from '@vat/gateway/start';
import { createClients } from '@vat/platform/clients';
import { EmbeddedStatistics } from '@vat/platform/embedded-maintenance';
import { loadModule } from './module-loader';
import { stopwatch } from '@vat/platform/stopwatch';
import { serveMetrics } from '@vat/platform/http-telemetry';
import { startProcessMetrics } from '@vat/platform/metrics';
import { createBus, directTransports, networkTransports, rpcServer, serviceInterceptors, serviceOrm, startRelays, startService, type RunningService } from './compose';
import { embeddedUrlFor } from '@vat/platform/embedded-pg-runtime';
import type { ServiceOrm } from '@vat/platform/db';
import type { Mode } from './mode';

export { isMode } from './mode';

export type Built = {
  mode: Mode;
  gateway?: RunningGateway;
  services: RunningService[];
  servers: FastifyInstance[];
  databaseUrl: string;
  /** Starts listening; returns the bound address of the main server. */
  listen(): Promise<string>;
  stop(): Promise<void>;
};

/** Connections per service pool on the embedded database (one PostgreSQL session serves them in turn). */
const EMBEDDED_POOL_MAX = 4;

/** The embedded database's URL for `dataDir`, or undefined when it has none (its open then says why). */
function embeddedUrlOrUndefined(dataDir: string): string | undefined {
  try {
    return embeddedUrlFor(dataDir);
  } catch {
    return undefined;
  }
}

/** Loads the code of every service (what `all` runs), without starting anything. */
async function preloadModules(): Promise<void> {
  for (const name of SERVICE_NAMES) await loadModule(name);
}

/**
 * The one composition root. `all`: every service in this process on embedded PostgreSQL (or
 * DATABASE_URL) with direct in-process transports; a service name: that service alone behind HTTP/2 Connect;
 * `gateway`: the REST gateway reaching the services over HTTP/2. `database`: the embedded database's start,
 * when the caller began it already (startEmbeddedDatabase; `all` without DATABASE_URL only); build owns it from
 * here and stops it with the rest.
 */
export async function build(mode: Mode, config: Config, log: Logger, database?: Promise<StartedEmbedded>): Promise<Built> {
  const boot = process.cpuUsage();
  log.info({ mode, ms: Math.round(process.uptime() * 1000), cpuMs: Math.round((boot.user + boot.system) / 1000) }, 'process started, modules loaded');
  // One process keeps its own key in DATA_DIR (generated once, 0600); a service process must be given DATA_ENCRYPTION_KEY.
  if (mode === 'all' && !config.dataEncryptionKey) {
    const file = readOrCreateKeyFile(config.dataDir);
    if (file.created) log.warn({ path: file.path }, 'generated a new data-encryption key; keep it with the database (identifiers encrypted under it cannot be read without it)');
    config = { ...config, dataEncryptionKey: file.key };
  }
  startProcessMetrics();
  const stops: (() => Promise<void>)[] = [];
  /** ORMs made while the embedded database opened, until their service takes them; the gateway built meanwhile, until it starts. */
  const prepared = new Map<ServiceName, ServiceOrm>();
  let preparedGateway: PreparedGateway | undefined;
  const closePrepared = async () => {
    for (const orm of prepared.values()) await orm.close().catch(() => undefined);
    prepared.clear();
    await preparedGateway?.close().catch(() => undefined);
    preparedGateway = undefined;
  };
  const services: RunningService[] = [];
  // `all`: the gateway and the services call each other in this process (resolved on the first call).
  const transports = directTransports(services, config);
  let embedded: EmbeddedPostgres | undefined;
  let databaseUrl = config.databaseUrl;
  if (database && (mode !== 'all' || databaseUrl)) throw new Error('an embedded database was started for a process that does not use one');
  if (!databaseUrl) {
    if (mode !== 'all') throw new Error(`DATABASE_URL is required to run "${mode}" as its own process`);
    // The database opens on its own thread: this one loads the services' code meanwhile (started early by
    // npm start, it has been opening while this process loaded its code).
    const starting = database ?? startEmbeddedDatabase(config, log);
    starting.catch(() => undefined);
    const elapsed = stopwatch();
    // Meanwhile the services' ORMs are made too (metadata discovery, ≈ 70 ms of CPU; MikroORM connects on the
    // first query), for the URL the database will be served at, and the gateway is built (its routes, the OpenAPI
    // document, the app made ready: ≈ 60-80 ms that would otherwise follow the services' start).
    const expectedUrl = embeddedUrlOrUndefined(config.dataDir);
    try {
      await preloadModules();
      if (expectedUrl) {
        for (const name of SERVICE_NAMES) prepared.set(name, await serviceOrm(await loadModule(name), config, expectedUrl, EMBEDDED_POOL_MAX));
        const { prepareGateway } = await import('@vat/gateway/start');
        preparedGateway = await prepareGateway({ config, databaseUrl: expectedUrl, log, clients: createClients(transports), poolMax: EMBEDDED_POOL_MAX });
      }
    } catch (err) {
      await closePrepared();
      await starting.then((s) => s.embedded.stop(), () => undefined);
      throw err;
    }
    const loaded = elapsed();
    const started = await starting.catch(async (err: unknown) => {
      await closePrepared();
      throw err;
    });
    embedded = started.embedded;
    databaseUrl = embedded.url;
    if (databaseUrl !== expectedUrl) await closePrepared();
    const waited = elapsed();
    log.info({ dataDir: config.dataDir, ...(started.created ? { created: started.created, createdBy: embedded.createdBy } : {}), ...embedded.phases, early: started.early === true, openedInMs: started.ms, modulesLoadedMeanwhileMs: loaded.ms, ms: waited.ms - loaded.ms, cpuMs: waited.cpuMs - loaded.cpuMs }, 'embedded PostgreSQL (PGlite) started');
  }
  if (mode !== 'all' && !config.natsUrl) throw new Error(`NATS_URL is required to run "${mode}" as its own process`);
  const poolMax = embedded ? EMBEDDED_POOL_MAX : 10;
  const bus = await createBus(config, log, `vat-${mode}`);
  const servers: FastifyInstance[] = [];
  let gateway: RunningGateway | undefined;
  let statistics: EmbeddedStatistics | undefined;
  const stopAll = async () => {
    await closePrepared();
    await statistics?.stop();
    for (const s of servers) await s.close().catch(() => undefined);
    if (gateway) await gateway.stop().catch(() => undefined);
    for (const s of services) await s.stop().catch(() => undefined);
    await bus.close().catch(() => undefined);
    for (const f of stops) await f().catch(() => undefined);
    if (embedded) await embedded.stop().catch(() => undefined);
  };
  try {
    if (mode === 'all') {
      // The five start side by side: their start is mostly statements on the database, and a service's own
      // work (the calculation's reference data decoded into memory) runs on this thread while the database's
      // thread answers another's. No service calls another while it starts. `services` keeps SERVICE_NAMES'
      // order (the relays', the stop's); one that failed stops the others that started.
      const results = await Promise.allSettled(
        SERVICE_NAMES.map(async (name) => {
          const orm = prepared.get(name);
          prepared.delete(name);
          return startService(await loadModule(name), config, databaseUrl, bus, log, poolMax, transports, orm);
        }),
      );
      for (const r of results) if (r.status === 'fulfilled') services.push(r.value);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      const elapsed = stopwatch();
      const early = preparedGateway !== undefined;
      if (preparedGateway) {
        gateway = await preparedGateway.start(bus);
        preparedGateway = undefined;
      } else {
        const { startGateway } = await import('@vat/gateway/start');
        gateway = await startGateway({ config, databaseUrl, bus, log, clients: createClients(transports), poolMax });
      }
      log.info({ ...elapsed(), builtWhileTheDatabaseOpened: early }, 'gateway started');
      servers.push(gateway.app);
    } else if (mode === 'gateway') {
      const clients = createClients(networkTransports(config));
      const { startGateway } = await import('@vat/gateway/start');
      gateway = await startGateway({ config, databaseUrl, bus, log, clients, poolMax });
      servers.push(gateway.app);
    } else {
      const svc = await startService(await loadModule(mode), config, databaseUrl, bus, log, poolMax, networkTransports(config));
      services.push(svc);
      const rpc = await rpcServer(svc.routes, serviceInterceptors(config));
      const health = Fastify({ logger: false });
      health.get('/health', async () => ({ status: 'ok' }));
      health.get('/ready', async (_req, reply) => {
        const r = await svc.readiness();
        if (!r.ready) reply.status(503);
        return { status: r.ready ? 'ready' : 'not_ready', checks: r.checks };
      });
      // The health port is not the public API: its /metrics is open to whoever reaches the port.
      serveMetrics(health);
      servers.push(rpc, health);
    }
    await startRelays(bus, services, { soleRelay: embedded !== undefined });
    if (embedded && services[0]) {
      statistics = new EmbeddedStatistics(services[0].deps.pool, log, { firstMs: 60_000, everyMs: 5 * 60_000 });
      statistics.start();
    }
  } catch (err) {
    await stopAll();
    throw err;
  }
  return {
    mode,
    gateway,
    services,
    servers,
    databaseUrl,
    async listen() {
      if (mode === 'all' || mode === 'gateway') return servers[0]!.listen({ host: config.host, port: config.port });
      const port = config.servicePort ?? DEFAULT_SERVICE_PORTS[mode];
      const address = await servers[0]!.listen({ host: config.host, port });
      await servers[1]!.listen({ host: config.host, port: port === 0 ? 0 : port + 1000 });
      return address;
    },
    stop: stopAll,
  };
}
