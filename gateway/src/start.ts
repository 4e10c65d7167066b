import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { EventBus } from '@vat/platform/bus';
import type { Clients } from '@vat/platform/clients';
import { SERVICE_NAMES, type Config } from '@vat/platform/config';
import { databaseProbes, migrate } from '@vat/platform/db';
import { READINESS_PROBE_MS } from '@vat/platform/deadline';
import { observePool, unobservePool } from '@vat/platform/metrics';
import { buildGateway } from './app';
import { GATEWAY_SCHEMA, KeyStore } from './keys';
import { MemoryLimiter, RedisLimiter, type Limiter } from './limiter';
import { SessionStore } from './sessions';
import { createGatewayOrm, openGatewayOrm } from './orm';
import type { ReadinessReport } from './routes/health';
import { usageConsumer } from './usage-consumer';

export { openGatewayOrm };

export type RunningGateway = { app: FastifyInstance; keys: KeyStore; sessions: SessionStore; stop(): Promise<void> };

/** The gateway built and its app ready, before its database is reached: {@link PreparedGateway.start} checks its migrations and subscribes. */
export type PreparedGateway = { app: FastifyInstance; start(bus: EventBus): Promise<RunningGateway>; close(): Promise<void> };

type GatewayOptions = { config: Config; databaseUrl: string; log: Logger; clients: Clients; poolMax: number; authCacheMs?: number };

/**
 * Builds the gateway for the database at `databaseUrl` without reaching it (the ORM connects on its first query): the
 * route table, the OpenAPI document and the app made ready. `npm start` does this while the embedded database is
 * still opening on its own thread (deploy/src/build.ts), so the gateway's build is not on the start's path.
 */
export async function prepareGateway(o: GatewayOptions): Promise<PreparedGateway> {
  const orm = await createGatewayOrm(o.databaseUrl, o.poolMax, o.config.databaseWaitMs, o.config.databaseIdleMs);
  let limiter: Limiter | undefined;
  try {
    // The ORM's pool exists once it connects (at start: getting it connects); the key store's queries go to it then.
    let pool: pg.Pool | undefined;
    const keys = new KeyStore({
      query: ((...args: unknown[]) => {
        if (!pool) throw new Error('the gateway has not started');
        return (pool.query as (...a: unknown[]) => unknown)(...args);
      }) as pg.Pool['query'],
    });
    limiter = o.config.redisUrl ? await RedisLimiter.connect(o.config.redisUrl) : new MemoryLimiter();
    const health = limiter;
    let bus: EventBus | undefined;
    const readiness = async (): Promise<ReadinessReport> => {
      // The gateway's own probes and every service's run side by side: `/ready` takes one probe timeout at most.
      const own = databaseProbes(orm, 'gateway');
      const services = Promise.all(
        SERVICE_NAMES.map(async (name) => {
          try {
            const r = await o.clients.readiness[name].getReadiness({}, { timeoutMs: READINESS_PROBE_MS });
            return r.checks.map((c) => ({ name: c.name, ok: c.ok, detail: c.detail }));
          } catch (err) {
            return [{ name: `${name}.reachable`, ok: false, detail: (err as Error).message }];
          }
        }),
      );
      const checks: ReadinessReport['checks'] = await own;
      if (o.config.natsUrl) checks.push({ name: 'gateway.nats', ok: bus?.connected() ?? false, detail: bus?.connected() ? 'connected' : 'not connected' });
      if (o.config.redisUrl) checks.push({ name: 'gateway.redis', ok: health.healthy(), detail: health.healthy() ? 'connected' : 'not connected' });
      checks.push(...(await services).flat());
      return { ready: checks.every((c) => c.ok), checks };
    };
    const sessions = new SessionStore(orm, { idleMs: o.config.sessionIdleMinutes * 60_000, absoluteMs: o.config.sessionMaxHours * 3_600_000, secureCookie: o.config.sessionCookieSecure });
    const app = await buildGateway({ clients: o.clients, keys, limiter, log: o.log, bodyLimitBytes: o.config.bodyLimitBytes, rateLimitPerMinute: o.config.rateLimitPerMinute, readiness, authCacheMs: o.authCacheMs, sessions, metrics: { serve: o.config.gatewayMetrics, token: o.config.metricsToken } });
    await app.ready();
    const close = async () => {
      await app.close();
      await health.close();
      await orm.close();
    };
    return {
      app,
      close,
      async start(eventBus) {
        await migrate(orm, o.databaseUrl, GATEWAY_SCHEMA);
        const started = (await orm.em.getConnection().getNativeClient()) as pg.Pool;
        pool = started;
        observePool('gateway', started);
        await eventBus.subscribe(usageConsumer(started));
        bus = eventBus;
        return {
          app,
          keys,
          sessions,
          async stop() {
            unobservePool(started);
            await close();
          },
        };
      },
    };
  } catch (err) {
    await limiter?.close().catch(() => undefined);
    await orm.close().catch(() => undefined);
    throw err;
  }
}

/** Builds the gateway with its own schema (accounts, keys, integrations, usage) and its consumers. */
export async function startGateway(o: GatewayOptions & { bus: EventBus }): Promise<RunningGateway> {
  const prepared = await prepareGateway(o);
  try {
    return await prepared.start(o.bus);
  } catch (err) {
    await prepared.close().catch(() => undefined);
    throw err;
  }
}
