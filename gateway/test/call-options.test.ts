import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { callOptions } from '../src/call-options';

/** A real HTTP server whose handler gets the response of each request; the test decides what happens next. */
async function serve(onRequest: (res: ServerResponse) => void) {
  const server = createServer((_req, res) => onRequest(res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Sends a request and drops the connection once the server has it. */
function requestThenDisconnect(port: number, served: Promise<unknown>): void {
  const req = request({ host: '127.0.0.1', port, path: '/' });
  req.on('error', () => {});
  req.end();
  void served.then(() => req.destroy());
}

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

describe('RPC call options of a gateway request: cancelled when the client goes away', () => {
  it('a signal read before the client disconnects aborts when it does', async () => {
    let signal: AbortSignal | undefined;
    const got = deferred<ServerResponse>();
    const { server, port } = await serve((res) => {
      signal = callOptions({}, res).signal;
      got.resolve(res);
    });
    servers.push(server);
    requestThenDisconnect(port, got.promise);
    const res = await got.promise;
    expect(signal!.aborted).toBe(false);
    await new Promise<void>((r) => signal!.addEventListener('abort', () => r(), { once: true }));
    expect(signal!.aborted).toBe(true);
    expect(res.writableFinished).toBe(false);
  });

  it('a signal first read after the client disconnected is already aborted', async () => {
    const got = deferred<ServerResponse>();
    const { server, port } = await serve((res) => got.resolve(res));
    servers.push(server);
    requestThenDisconnect(port, got.promise);
    const res = await got.promise;
    await new Promise<void>((r) => (res.destroyed ? r() : res.once('close', () => r())));
    expect(callOptions({ 'x-request-id': 'r1' }, res)).toMatchObject({ headers: { 'x-request-id': 'r1' }, signal: { aborted: true } });
  });

  it('an answered request never aborts its signal', async () => {
    let signal: AbortSignal | undefined;
    const closed = deferred<void>();
    const { server, port } = await serve((res) => {
      signal = callOptions({}, res).signal;
      res.on('close', () => closed.resolve());
      res.end('ok');
    });
    servers.push(server);
    const body = await fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
    await closed.promise;
    expect(body).toBe('ok');
    expect(signal!.aborted).toBe(false);
  });
});
