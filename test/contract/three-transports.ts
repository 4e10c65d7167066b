import Fastify, { type FastifyInstance } from 'fastify';
import { fastifyConnectPlugin } from '@connectrpc/connect-fastify';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { createH2Transport } from '@vat/platform/h2-transport';
import type { Transport } from '@connectrpc/connect';
import { lazyTransport } from '@vat/platform/clients';
import type { Config, ServiceName } from '@vat/platform/config';
import { directTransports, rpcServer, serviceInterceptors, type RunningService } from '@vat/deploy/compose';
import { routerTransports } from '../support/router-transports';

/**
 * `http2` is the deployed pair (createH2Transport to rpcServer: unary calls written out on node:http2);
 * `connect-http2` is connect-node's own client and Connect's Fastify plugin alone, the reference it must equal.
 */
export const TRANSPORT_KINDS = ['direct', 'router', 'http2', 'connect-http2'] as const;
/** The kinds that cross HTTP/2 (and so check the internal token). */
export const NETWORK_KINDS: readonly TransportKind[] = ['http2', 'connect-http2'];
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
  const connectHttp2 = new Map<ServiceName, Transport>();
  for (const svc of services) {
    const app = await rpcServer(svc.routes, serviceInterceptors(config));
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const session = new Http2SessionManager(url);
    servers.push(app);
    sessions.push(session);
    http2.set(svc.module.name, createH2Transport({ baseUrl: url, sessionManager: session }));
    const plain = Fastify({ http2: true, logger: false });
    await plain.register(fastifyConnectPlugin, { routes: svc.routes, interceptors: serviceInterceptors(config) });
    const plainUrl = await plain.listen({ host: '127.0.0.1', port: 0 });
    const plainSession = new Http2SessionManager(plainUrl);
    servers.push(plain as unknown as FastifyInstance);
    sessions.push(plainSession);
    connectHttp2.set(svc.module.name, createConnectTransport({ baseUrl: plainUrl, httpVersion: '2', sessionManager: plainSession }));
  }
  const served = (m: Map<ServiceName, Transport>) => (name: ServiceName) =>
    lazyTransport(() => {
      const t = m.get(name);
      if (!t) throw new Error(`${name} is not served over HTTP/2 in this suite`);
      return t;
    });
  return {
    transportFor: {
      direct: directTransports(services, config),
      router: routerTransports(services, config),
      http2: served(http2),
      'connect-http2': served(connectHttp2),
    },
    async close() {
      for (const s of sessions) s.abort();
      for (const s of servers) await s.close();
    },
  };
}
