import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type HandlerContext } from '@connectrpc/connect';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { ReadinessService } from '@vat/gen/vat/platform/v1/readiness_service_pb';
import { createH2Transport } from '@vat/platform/h2-transport';
import { rpcServer } from '../src/compose';

/** Which path served the call: the fast path's context is the direct transport's (it has `forRequest`), Connect's is not. */
const servedBy = (ctx: HandlerContext) => (typeof (ctx as unknown as { forRequest?: unknown }).forRequest === 'function' ? 'fast path' : 'connect');

const sessions: Http2SessionManager[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.abort();
});

describe("a service process's RPC server (rpcServer)", () => {
  it('serves binary unary calls on the fast path and JSON through Connect, with the same answer', async () => {
    const app = await rpcServer((r) => r.service(ReadinessService, { getReadiness: (_req, ctx) => ({ service: servedBy(ctx), ready: true }) }), []);
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const session = new Http2SessionManager(url);
      sessions.push(session);
      expect(await createClient(ReadinessService, createH2Transport({ baseUrl: url, sessionManager: session })).getReadiness({})).toMatchObject({ service: 'fast path', ready: true });
      const json = createConnectTransport({ baseUrl: url, httpVersion: '2', useBinaryFormat: false });
      expect(await createClient(ReadinessService, json).getReadiness({})).toMatchObject({ service: 'connect', ready: true });
    } finally {
      await app.close();
    }
  });

  it('closes promptly while a caller keeps its connection open', async () => {
    const app = await rpcServer((r) => r.service(ReadinessService, { getReadiness: () => ({ ready: true }) }), []);
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const session = new Http2SessionManager(url);
    sessions.push(session);
    await createClient(ReadinessService, createH2Transport({ baseUrl: url, sessionManager: session })).getReadiness({});
    const started = performance.now();
    await app.close();
    expect(performance.now() - started).toBeLessThan(2000);
    expect(app.server.listening).toBe(false);
  });
});
