import { createServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadinessService } from '@vat/gen/vat/platform/v1/readiness_service_pb';
import { peerFaultInterceptor } from './peer-faults';
import { reasonOf } from './rpc-errors';

/** An HTTP/2 server whose every call meets `behave` instead of a service. */
async function server(behave: (stream: import('node:http2').ServerHttp2Stream) => void): Promise<{ url: string; close(): Promise<void> }> {
  const s: Http2Server = createServer();
  s.on('stream', (stream) => {
    stream.on('error', () => undefined);
    behave(stream);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((r) => s.close(() => r())) };
}

const call = (url: string, interceptors = [peerFaultInterceptor()]) =>
  createClient(ReadinessService, createConnectTransport({ baseUrl: url, httpVersion: '2', interceptors }))
    .getReadiness({}, { timeoutMs: 5000 })
    .then(() => undefined, (e: unknown) => ConnectError.from(e));

describe('a service process that dies mid-call', () => {
  const servers: { close(): Promise<void> }[] = [];
  let reset: string;
  let rst: string;
  let refused: string;
  let answered: string;
  beforeAll(async () => {
    // The replica is killed while the call is in flight: its socket goes away.
    const a = await server((stream) => stream.session?.socket.destroy());
    // The stream is reset with INTERNAL_ERROR.
    const b = await server((stream) => stream.close(2));
    // A real Connect error of the service, with its reason.
    const c = await server((stream) => {
      stream.respond({ ':status': 404, 'content-type': 'application/json' });
      stream.end(JSON.stringify({ code: 'not_found', message: 'nope', details: [] }));
    });
    const d = await server(() => undefined);
    await d.close();
    servers.push(a, b, c);
    [reset, rst, answered, refused] = [a.url, b.url, c.url, d.url];
  });
  afterAll(async () => {
    for (const s of servers) await s.close().catch(() => undefined);
  });

  it.each([
    ['its connection reset (ECONNRESET)', () => reset],
    ['its stream reset (RST_STREAM INTERNAL_ERROR)', () => rst],
    ['connection refused (the replica is gone)', () => refused],
  ])('answers Unavailable service_unavailable when %s, without the socket error in the message', async (_name, url) => {
    const err = await call(url());
    expect(err?.code, String(err)).toBe(Code.Unavailable);
    expect(reasonOf(err!)).toBe('service_unavailable');
    expect(err!.rawMessage).not.toMatch(/ECONN|stream closed/);
  });

  it('without it, connect-node makes a reset an Aborted (409 at the gateway) that shows "read ECONNRESET"', async () => {
    const err = await call(reset, []);
    expect(err?.code).not.toBe(Code.Unavailable);
  });

  it("leaves the service's own answers alone", async () => {
    const err = await call(answered);
    expect(err?.code).toBe(Code.NotFound);
  });
});
