import pino from 'pino';
import type { Clients } from '@vat/platform/clients';
import { buildGateway } from '@vat/gateway/app';
import { MemoryLimiter } from '@vat/gateway/limiter';

/**
 * The document `/openapi.json` serves, built from the gateway's route table without a database or
 * services (no request is ever answered here; the handlers are not called).
 */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const app = await buildGateway({
    clients: {} as Clients,
    keys: {} as never,
    sessions: {} as never,
    limiter: new MemoryLimiter(),
    log: pino({ level: 'silent' }),
    bodyLimitBytes: 65536,
    rateLimitPerMinute: 60,
    readiness: async () => ({ ready: true, checks: [] }),
    dashboardAssets: new Map(),
  });
  await app.ready();
  const doc = app.swagger() as unknown as Record<string, unknown>;
  await app.close();
  return doc;
}
