import Fastify, { type FastifyInstance } from 'fastify';
import { fastifyConnectPlugin } from '@connectrpc/connect-fastify';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import type { Transport } from '@connectrpc/connect';
import { lazyTransport } from '@vat/platform/clients';
import type { Config, ServiceName } from '@vat/platform/config';
import { directTransports, serviceInterceptors, type RunningService } from '@vat/deploy/compose';
import { routerTransports } from '../support/router-transports';

export const TRANSPORT_KINDS = ['direct', 'router', 'http2'] as const;
export type TransportKind = (typeof TRANSPORT_KINDS)[number];

export type ThreeTransports = {
  transportFor: Record<TransportKind, (name: ServiceName) => Transport>;
  close(): Promise<void>;
};

/**
 * The running services behind the three ways a client reaches them: the direct in-process transport,
 * Connect's router transport, and HTTP/2 Connect to a Fastify server per service (as a service
 * process serves it), all with the server interceptors `config` selects.
 */
export async function threeTransports(services: RunningService[], config: Config): Promise<ThreeTransports> {
  const servers: FastifyInstance[] = [];
  const sessions: Http2SessionManager[] = [];
  const http2 = new Map<ServiceName, Transport>();
  for (const svc of services) {
    const app = Fastify({ http2: true, logger: false });
    await app.register(fastifyConnectPlugin, { routes: svc.routes, interceptors: serviceInterceptors(config) });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const session = new Http2SessionManager(url);
    servers.push(app as unknown as FastifyInstance);
    sessions.push(session);
    http2.set(svc.module.name, createConnectTransport({ baseUrl: url, httpVersion: '2', sessionManager: session }));
  }
  return {
    transportFor: {
      direct: directTransports(services, config),
      router: routerTransports(services, config),
      http2: (name) =>
        lazyTransport(() => {
          const t = http2.get(name);
          if (!t) throw new Error(`${name} is not served over HTTP/2 in this suite`);
          return t;
        }),
    },
    async close() {
      for (const s of sessions) s.abort();
      for (const s of servers) await s.close();
    },
  };
}
