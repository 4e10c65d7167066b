import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { EventBus } from '@vat/platform/bus';
import type { Clients } from '@vat/platform/clients';
import { SERVICE_NAMES, type Config } from '@vat/platform/config';
import { databaseProbes } from '@vat/platform/db';
import { READINESS_PROBE_MS } from '@vat/platform/deadline';
import { observePool, unobservePool } from '@vat/platform/metrics';
import { buildGateway, preloadDocsPlugins } from './app';
import { KeyStore } from './keys';
import { MemoryLimiter, RedisLimiter, type Limiter } from './limiter';
import { SessionStore } from './sessions';
import { openGatewayOrm } from './orm';
import type { ReadinessReport } from './routes/health';
import { usageConsumer } from './usage-consumer';

export { openGatewayOrm, preloadDocsPlugins };

export type RunningGateway = { app: FastifyInstance; keys: KeyStore; sessions: SessionStore; stop(): Promise<void> };

/** Builds the gateway with its own schema (accounts, keys, integrations, usage) and its consumers. */
export async function startGateway(o: { config: Config; databaseUrl: string; bus: EventBus; log: Logger; clients: Clients; poolMax: number; authCacheMs?: number }): Promise<RunningGateway> {
  const orm = await openGatewayOrm(o.databaseUrl, o.poolMax, o.config.databaseWaitMs, o.config.databaseIdleMs);
  const pool = (await orm.em.getConnection().getNativeClient()) as pg.Pool;
  observePool('gateway', pool);
  await o.bus.subscribe(usageConsumer(pool));
  const keys = new KeyStore(pool);
  const limiter: Limiter = o.config.redisUrl ? await RedisLimiter.connect(o.config.redisUrl) : new MemoryLimiter();
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
    if (o.config.natsUrl) checks.push({ name: 'gateway.nats', ok: o.bus.connected(), detail: o.bus.connected() ? 'connected' : 'not connected' });
    if (o.config.redisUrl) checks.push({ name: 'gateway.redis', ok: limiter.healthy(), detail: limiter.healthy() ? 'connected' : 'not connected' });
    checks.push(...(await services).flat());
    return { ready: checks.every((c) => c.ok), checks };
  };
  const sessions = new SessionStore(orm, { idleMs: o.config.sessionIdleMinutes * 60_000, absoluteMs: o.config.sessionMaxHours * 3_600_000, secureCookie: o.config.sessionCookieSecure });
  const app = await buildGateway({ clients: o.clients, keys, limiter, log: o.log, bodyLimitBytes: o.config.bodyLimitBytes, rateLimitPerMinute: o.config.rateLimitPerMinute, readiness, authCacheMs: o.authCacheMs, sessions, metrics: { serve: o.config.gatewayMetrics, token: o.config.metricsToken } });
  return {
    app,
    keys,
    sessions,
    async stop() {
      await app.close();
      await limiter.close();
      unobservePool(pool);
      await orm.close();
    },
  };
}
