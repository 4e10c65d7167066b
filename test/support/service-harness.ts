import { randomBytes } from 'node:crypto';
import { createClient, createRouterTransport, type Client, type Transport } from '@connectrpc/connect';
import type { DescService } from '@bufbuild/protobuf';
import pino from 'pino';
import { InProcessBus } from '@vat/platform/bus';
import { loadConfig, type ServiceName } from '@vat/platform/config';
import { principalHeaders, type Principal } from '@vat/platform/principal';
import type { ServiceDeps } from '@vat/platform/service-module';
import { MODULES } from '@vat/deploy/modules';
import { serviceInterceptors, startService, type RunningService } from '@vat/deploy/compose';
import { freshDatabase } from './env';
import { routerTransports } from './router-transports';

export type ServiceHarness<D extends ServiceDeps = ServiceDeps> = {
  service: RunningService;
  deps: D;
  transport: Transport;
  client<S extends DescService>(desc: S): Client<S>;
  /** Call options carrying a principal, as the gateway sends them. */
  as(p: Partial<Principal> & { accountId: bigint }): { headers: Record<string, string> };
  close(): Promise<void>;
};

/**
 * One service on a fresh PostgreSQL database (cloned from the migrated, seeded template), reached
 * through `createRouterTransport` with the same server interceptors as production. `alongside` names
 * the services it calls by RPC (e.g. the ledger asks calculation for its tax classes and the rates in
 * force); they run on the same database, reached the same way.
 */
export async function startServiceHarness<D extends ServiceDeps = ServiceDeps>(name: ServiceName, opts: { alongside?: ServiceName[] } = {}): Promise<ServiceHarness<D>> {
  const db = await freshDatabase();
  const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', OUTBOX_POLL_MS: '50', DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') });
  const bus = new InProcessBus();
  const running: RunningService[] = [];
  const transports = routerTransports(running, config);
  for (const other of opts.alongside ?? []) running.push(await startService(MODULES[other], config, db.url, bus, pino({ level: 'silent' }), 2, transports));
  const service = await startService(MODULES[name], config, db.url, bus, pino({ level: 'silent' }), 4, transports);
  running.push(service);
  const transport = createRouterTransport(service.routes, { router: { interceptors: serviceInterceptors(config) } });
  return {
    service,
    deps: service.deps as D,
    transport,
    client: (desc) => createClient(desc, transport),
    as: (p) => ({ headers: principalHeaders({ apiKeyId: 1n, keyKind: 'v2', scope: 'full', ...p }) }),
    async close() {
      for (const s of running.reverse()) await s.stop();
      await bus.close();
      await db.drop();
    },
  };
}
