import { createRouterTransport, type Transport } from '@connectrpc/connect';
import type { Config, ServiceName } from '@vat/platform/config';
import { inProcessTransports, serviceInterceptors, type RunningService } from '@vat/deploy/compose';

/** The services of this process behind Connect's router transport (full protocol in memory), as service tests call them. */
export function routerTransports(running: RunningService[], config: Config): (name: ServiceName) => Transport {
  return inProcessTransports(running, (routes) => createRouterTransport(routes, { router: { interceptors: serviceInterceptors(config, true) } }));
}
