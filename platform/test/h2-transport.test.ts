import { afterEach, describe, expect, it, vi } from 'vitest';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { create, toBinary } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient, createContextKey, type ConnectRouter, type HandlerContext, type Interceptor, type ServiceImpl, type Transport } from '@connectrpc/connect';
import { connectNodeAdapter, createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { ErrorInfoSchema } from '@vat/gen/google/rpc/error_details_pb';
import { CalculationService, ListTransactionsRequestSchema, ListTransactionsResponseSchema } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { GetReadinessResponseSchema, ReadinessService } from '@vat/gen/vat/platform/v1/readiness_service_pb';
import { createH2Transport, unaryFastPath } from '../src/h2-transport';
import { isPeerFault, peerFaultInterceptor } from '../src/peer-faults';
import { rpcError } from '../src/rpc-errors';
import { failureOf as failureOfCall } from './rpc-failure';

const CALLER = createContextKey<string>('nobody', { description: 'set by the test interceptor' });
const callerInterceptor: Interceptor = (next) => async (req) => {
  const caller = req.header.get('x-caller');
  if (caller) req.contextValues.set(CALLER, caller);
  return next(req);
};

type Services = { readiness?: Partial<ServiceImpl<typeof ReadinessService>>; calculation?: Partial<ServiceImpl<typeof CalculationService>> };
type Served = { url: string; fastCalls: () => number; server: http2.Http2Server; close(): Promise<void> };

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  // Clients first (as a deployment's processes stop), then the servers.
  for (const close of open.splice(0).reverse()) await close();
});

/** An HTTP/2 server with Connect's node adapter, and in front of it the fast path when `fast` (as rpcServer does with Fastify). */
async function serve(routes: (router: ConnectRouter) => void, interceptors: Interceptor[], fast: boolean): Promise<Served> {
  const adapter = connectNodeAdapter({ routes, interceptors });
  const fastPath = fast ? unaryFastPath(routes, interceptors) : undefined;
  let fastCalls = 0;
  const server = http2.createServer((req, res) => {
    if (fastPath?.(req, res)) fastCalls++;
    else adapter(req, res);
  });
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (s) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const served: Served = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    fastCalls: () => fastCalls,
    server,
    async close() {
      for (const s of sessions) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
  open.push(() => served.close());
  return served;
}

function client(kind: 'lean' | 'connect', url: string, interceptors: Interceptor[] = []): Transport {
  const sessionManager = new Http2SessionManager(url);
  open.push(async () => sessionManager.abort());
  return kind === 'lean' ? createH2Transport({ baseUrl: url, sessionManager, interceptors }) : createConnectTransport({ baseUrl: url, httpVersion: '2', acceptCompression: [], sessionManager, interceptors });
}

/**
 * The four pairs over HTTP/2: connect-node's client to Connect's own handler first (the reference), then
 * the deployed pair (createH2Transport to the fast path) and each half against the other's reference half.
 */
async function pairs(services: Services, interceptors: Interceptor[] = [callerInterceptor]) {
  const routes = (router: ConnectRouter) => {
    if (services.readiness) router.service(ReadinessService, services.readiness);
    if (services.calculation) router.service(CalculationService, services.calculation);
  };
  const plain = await serve(routes, interceptors, false);
  const fast = await serve(routes, interceptors, true);
  const list: [string, Transport][] = [
    ['connect → connect', client('connect', plain.url)],
    ['lean → fast path', client('lean', fast.url)],
    ['lean → connect', client('lean', plain.url)],
    ['connect → fast path', client('connect', fast.url)],
  ];
  return { list, fast, plain };
}

/** What a caller observes, without the cause (each client wraps the socket's error in an object of its own). */
async function failureOf(call: Promise<unknown>) {
  const { cause: _cause, ...observed } = await failureOfCall(call);
  return observed;
}

/** Every pair failed the same way as the reference; returns the reference's failure. */
async function sameFailure(services: Services, call: (t: Transport) => Promise<unknown>, interceptors?: Interceptor[]) {
  const { list } = await pairs(services, interceptors);
  const reference = await failureOf(call(list[0]![1]));
  for (const [name, t] of list.slice(1)) expect(await failureOf(call(t)), name).toEqual(reference);
  return reference;
}

const never = (signal: AbortSignal) => new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));

describe('unary calls over HTTP/2: createH2Transport and the fast path answer as connect-node does', () => {
  it('serves binary unary calls on the fast path (with or without a deadline), and the rest (JSON, streams) through Connect', async () => {
    const { fast } = await pairs({ readiness: { getReadiness: () => ({ ready: true }) }, calculation: { async *exportTransactions() {} } });
    const lean = createClient(ReadinessService, client('lean', fast.url));
    expect((await lean.getReadiness({})).ready).toBe(true);
    expect(fast.fastCalls()).toBe(1);
    await lean.getReadiness({}, { timeoutMs: 5000 });
    expect(fast.fastCalls()).toBe(2);
    const json = createClient(ReadinessService, createConnectTransport({ baseUrl: fast.url, httpVersion: '2', useBinaryFormat: false }));
    expect((await json.getReadiness({})).ready).toBe(true);
    for await (const _ of createClient(CalculationService, client('lean', fast.url)).exportTransactions({})) expect.fail('no chunk');
    expect(fast.fastCalls()).toBe(2);
  });

  it('runs the server interceptors around the handler in order, with the context values they set', async () => {
    const trace: string[] = [];
    const tracing =
      (name: string): Interceptor =>
      (next) =>
      async (req) => {
        trace.push(`${name}>`);
        const res = await next(req);
        trace.push(`<${name}`);
        return res;
      };
    const readiness = { getReadiness: (_: unknown, ctx: HandlerContext) => (trace.push('handler'), { service: `${ctx.values.get(CALLER)}|${ctx.requestHeader.get('x-caller')}|${ctx.protocolName}|${ctx.requestMethod}` }) };
    const { list } = await pairs({ readiness }, [tracing('outer'), callerInterceptor, tracing('inner')]);
    for (const [name, t] of list) {
      trace.length = 0;
      const res = await createClient(ReadinessService, t).getReadiness({}, { headers: { 'x-caller': 'gateway' } });
      expect(res.service, name).toBe('gateway|gateway|connect|POST');
      expect(trace, name).toEqual(['outer>', 'inner>', 'handler', '<inner', '<outer']);
    }
  });

  it('passes the request message and the answer field by field, and the client interceptors see the call', async () => {
    const seen: string[] = [];
    const calculation = { listTransactions: (req: { limit?: number; cursor?: string }) => ({ nextCursor: `${req.limit}:${req.cursor}` }) };
    const { plain, fast } = await pairs({ calculation });
    const spy: Interceptor = (next) => async (req) => {
      seen.push(`${req.method.name} ${req.url} ${req.header.get('content-type')} ${req.header.get('connect-protocol-version')}`);
      const res = await next(req);
      seen.push(`${res.header.get('content-type')}`);
      return res;
    };
    for (const url of [plain.url, fast.url]) {
      for (const kind of ['lean', 'connect'] as const) {
        const res = await createClient(CalculationService, client(kind, url, [spy])).listTransactions(create(ListTransactionsRequestSchema, { limit: 7, cursor: 'c-1' }));
        expect(res.nextCursor, `${kind} ${url}`).toBe('7:c-1');
      }
    }
    expect(new Set(seen.filter((s) => s.startsWith('List')).map((s) => s.replace(/127\.0\.0\.1:\d+/, 'host')))).toEqual(new Set(['ListTransactions http://host/vat.calculation.v1.CalculationService/ListTransactions application/proto 1']));
    expect(new Set(seen.filter((s) => !s.startsWith('List')))).toEqual(new Set(['application/proto']));
  });

  it('passes response headers and trailers set by the handler to the caller', async () => {
    const readiness = {
      getReadiness(_: unknown, ctx: HandlerContext) {
        ctx.responseHeader.set('x-answered-by', 'fake');
        ctx.responseTrailer.set('x-rows', '3');
        return {};
      },
    };
    for (const [name, t] of (await pairs({ readiness })).list) {
      let header: Headers | undefined;
      let trailer: Headers | undefined;
      await createClient(ReadinessService, t).getReadiness({}, { onHeader: (h) => (header = h), onTrailer: (tr) => (trailer = tr) });
      expect(header?.get('x-answered-by'), name).toBe('fake');
      expect(trailer?.get('x-rows'), name).toBe('3');
      expect(header?.get('x-rows'), name).toBeNull();
    }
  });

  it('keeps code, message, ErrorInfo details and metadata of a ConnectError', async () => {
    const err = rpcError(Code.FailedPrecondition, 'not_eligible', 'The seller is not eligible.', { country: 'DE' });
    err.metadata.set('x-retry', '5');
    const failure = await sameFailure({ readiness: { getReadiness: () => Promise.reject(err) } }, (t) => createClient(ReadinessService, t).getReadiness({}));
    expect(failure).toMatchObject({ code: Code.FailedPrecondition, rawMessage: 'The seller is not eligible.', retry: '5', wire: true });
    expect(failure.info).toEqual([create(ErrorInfoSchema, { reason: 'not_eligible', domain: 'vat', metadata: { country: 'DE' } })]);
  });

  it('turns any other error into Internal "internal error"; an interceptor\'s error and an unimplemented method the same way', async () => {
    const ready = (t: Transport) => createClient(ReadinessService, t).getReadiness({});
    expect(await sameFailure({ readiness: { getReadiness: () => Promise.reject(new TypeError('relation "secret" does not exist')) } }, ready)).toMatchObject({ code: Code.Internal, rawMessage: 'internal error' });
    const refuse: Interceptor = () => async () => {
      throw new ConnectError('caller is not the gateway', Code.Unauthenticated);
    };
    expect(await sameFailure({ readiness: { getReadiness: () => ({}) } }, ready, [refuse])).toMatchObject({ code: Code.Unauthenticated, rawMessage: 'caller is not the gateway' });
    expect(await sameFailure({ calculation: {} }, (t) => createClient(CalculationService, t).listTransactions({}))).toMatchObject({ code: Code.Unimplemented });
    expect(await sameFailure({ calculation: {} }, (t) => createClient(ReadinessService, t).getReadiness({}))).toMatchObject({ code: Code.Unimplemented });
  });

  it('answers a body that is not the method\'s message, and a malformed deadline, as Connect\'s handler does (status and JSON)', async () => {
    const { plain, fast } = await pairs({ readiness: { getReadiness: () => ({}) } });
    const raw = async (url: string, extra: Record<string, string> = {}) => {
      const session = http2.connect(url);
      try {
        return await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
          const req = session.request({ ':method': 'POST', ':path': '/vat.platform.v1.ReadinessService/GetReadiness', 'content-type': 'application/proto', ...extra });
          let status = 0;
          let type = '';
          let body = '';
          req.on('response', (h) => ((status = Number(h[':status'])), (type = String(h['content-type']))));
          req.on('data', (c: Buffer) => (body += c.toString('utf8')));
          req.on('end', () => resolve({ status, type, body }));
          req.on('error', reject);
          req.end(Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff]));
        });
      } finally {
        session.close();
      }
    };
    const reference = await raw(plain.url);
    expect(reference.status).toBe(500);
    expect(JSON.parse(reference.body)).toMatchObject({ code: 'internal' });
    expect(await raw(fast.url)).toEqual(reference);
    expect(fast.fastCalls()).toBe(1);
    // A malformed deadline is left to Connect's handler (InvalidArgument), on either server.
    const badDeadline = await raw(fast.url, { 'connect-timeout-ms': 'soon' });
    expect(badDeadline.status).toBe(400);
    expect(JSON.parse(badDeadline.body)).toMatchObject({ code: 'invalid_argument' });
    expect(await raw(plain.url, { 'connect-timeout-ms': 'soon' })).toEqual(badDeadline);
    expect(fast.fastCalls()).toBe(1);
  });

  it('never runs a call whose client went away before the request ended (its bytes decode, but the request is cut)', async () => {
    let ran = 0;
    const calculation = { listTransactions: () => (ran++, {}) };
    const { plain, fast } = await pairs({ calculation });
    for (const url of [fast.url, plain.url]) {
      const session = http2.connect(url);
      session.on('error', () => undefined);
      const req = session.request({ ':method': 'POST', ':path': '/vat.calculation.v1.CalculationService/ListTransactions', 'content-type': 'application/proto' });
      req.on('error', () => undefined);
      const closed = new Promise((r) => req.on('close', r));
      // A whole message, but no END_STREAM: the client dies before it ends the request.
      req.write(toBinary(ListTransactionsRequestSchema, create(ListTransactionsRequestSchema, { limit: 5 })), () => setTimeout(() => session.destroy(), 20));
      await closed;
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(ran).toBe(0);
    // The same request ended properly runs (the check can fail).
    await createClient(CalculationService, client('lean', fast.url)).listTransactions({ limit: 5 });
    expect(ran).toBe(1);
  });

  it('cancels the handler when the caller aborts (Canceled), and aborts its signal once it has answered', async () => {
    let handlerSignal: AbortSignal | undefined;
    const readiness = {
      getReadiness(_: unknown, ctx: HandlerContext) {
        handlerSignal = ctx.signal;
        return ctx.requestHeader.get('x-wait') ? never(ctx.signal) : create(GetReadinessResponseSchema, { ready: true });
      },
    };
    for (const [name, t] of (await pairs({ readiness })).list) {
      const controller = new AbortController();
      const call = createClient(ReadinessService, t).getReadiness({}, { signal: controller.signal, headers: { 'x-wait': '1' } });
      await vi.waitFor(() => expect(handlerSignal, name).toBeDefined());
      controller.abort();
      expect((await failureOf(call)).code, name).toBe(Code.Canceled);
      await vi.waitFor(() => expect(handlerSignal?.aborted, name).toBe(true));
      handlerSignal = undefined;
      expect((await createClient(ReadinessService, t).getReadiness({})).ready, name).toBe(true);
      await vi.waitFor(() => expect(handlerSignal?.aborted, name).toBe(true));
      handlerSignal = undefined;
    }
  });

  it('hands the deadline to the handler, ends the call at it (DeadlineExceeded), and refuses a call whose signal is already aborted (Canceled)', async () => {
    let seen: { timeoutMs?: number; reason?: unknown } = {};
    const readiness = {
      getReadiness(_: unknown, ctx: HandlerContext) {
        seen.timeoutMs = ctx.timeoutMs();
        ctx.signal.addEventListener('abort', () => (seen.reason = ctx.signal.reason));
        return new Promise<never>(() => undefined);
      },
    };
    const { list, fast } = await pairs({ readiness });
    for (const [name, t] of list) {
      seen = {};
      const c = createClient(ReadinessService, t);
      expect((await failureOf(c.getReadiness({}, { timeoutMs: 300 }))).code, name).toBe(Code.DeadlineExceeded);
      expect(seen.timeoutMs, name).toBeGreaterThan(0);
      expect(seen.timeoutMs, name).toBeLessThanOrEqual(300);
      // The server's own deadline (DeadlineExceeded) or the caller's reset stream at its deadline (connect-node resets
      // with INTERNAL_ERROR) aborts the handler's signal, whichever comes first.
      await vi.waitFor(() => expect((seen.reason as ConnectError | undefined)?.code, name).toBeOneOf([Code.DeadlineExceeded, Code.Internal, Code.Canceled]));
      expect((await failureOf(c.getReadiness({}, { signal: AbortSignal.abort() }))).code, name).toBe(Code.Canceled);
    }
    expect(fast.fastCalls()).toBe(2);
  });
});

describe('createH2Transport: a peer that is down or goes away is a peer fault (503 at the gateway)', () => {
  it('a refused connection is Unavailable and a peer fault', async () => {
    const { server, url, close } = await serve(() => undefined, [], true);
    await close();
    expect(server.listening).toBe(false);
    const err = await createClient(ReadinessService, client('lean', url)).getReadiness({}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.Unavailable);
    expect(isPeerFault(err)).toBe(true);
  });

  it('a connection that breaks mid-call is a peer fault, which the interceptor makes service_unavailable; the next call reconnects', async () => {
    let sessions: http2.ServerHttp2Session[] = [];
    const readiness = {
      getReadiness(_: unknown, ctx: HandlerContext) {
        if (ctx.requestHeader.get('x-break')) {
          for (const s of sessions) s.destroy(new Error('killed'));
          return never(ctx.signal);
        }
        return { ready: true };
      },
    };
    const fast = await serve((r) => r.service(ReadinessService, readiness), [], true);
    fast.server.on('session', (s) => sessions.push(s));
    const c = createClient(ReadinessService, client('lean', fast.url, [peerFaultInterceptor()]));
    const err = await c.getReadiness({}, { headers: { 'x-break': '1' } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: Code.Unavailable, rawMessage: 'A backing service did not answer; retry the request.' });
    sessions = [];
    expect((await c.getReadiness({})).ready).toBe(true);
  });

  it('refuses an answer larger than readMaxBytes (ResourceExhausted) and an answer that is not Connect', async () => {
    const fast = await serve((r) => r.service(ReadinessService, { getReadiness: () => ({ service: 'x'.repeat(2000) }) }), [], true);
    const small = createH2Transport({ baseUrl: fast.url, readMaxBytes: 1000 });
    expect((await failureOf(createClient(ReadinessService, small).getReadiness({}))).code).toBe(Code.ResourceExhausted);
    const html = http2.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<p>not connect</p>');
    });
    await new Promise<void>((r) => html.listen(0, '127.0.0.1', r));
    open.push(() => new Promise((r) => html.close(() => r())));
    const url = `http://127.0.0.1:${(html.address() as AddressInfo).port}`;
    const fromLean = await failureOf(createClient(ReadinessService, client('lean', url)).getReadiness({}));
    const fromConnect = await failureOf(createClient(ReadinessService, client('connect', url)).getReadiness({}));
    expect(fromLean).toEqual(fromConnect);
    expect(fromLean.code).toBe(Code.Unknown);
  });

  it('an answer cut short by a lost connection (the peer killed mid-body) is a peer fault, not a message to parse', async () => {
    const cutting = http2.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/proto', 'content-length': '100000' });
      res.write(Buffer.alloc(30000, 0x0a), () => setTimeout(() => req.stream.session?.destroy(), 20));
    });
    await new Promise<void>((r) => cutting.listen(0, '127.0.0.1', r));
    open.push(() => new Promise((r) => cutting.close(() => r())));
    const url = `http://127.0.0.1:${(cutting.address() as AddressInfo).port}`;
    const call = (kind: 'lean' | 'connect') => createClient(ReadinessService, client(kind, url)).getReadiness({}).then(
      () => expect.fail('the call succeeded'),
      (e: unknown) => e,
    );
    const fromConnect = await call('connect');
    const fromLean = await call('lean');
    expect(isPeerFault(fromConnect)).toBe(true);
    expect(isPeerFault(fromLean)).toBe(true);
    expect({ code: (fromLean as ConnectError).code, message: (fromLean as ConnectError).rawMessage }).toEqual({ code: (fromConnect as ConnectError).code, message: (fromConnect as ConnectError).rawMessage });
  });

  it('reads a stream the server resets as connect-node does (the code and message of each RST_STREAM code)', async () => {
    const resetting = http2.createServer((req) => req.stream.close(Number(req.headers['x-reset'])));
    await new Promise<void>((r) => resetting.listen(0, '127.0.0.1', r));
    open.push(() => new Promise((r) => resetting.close(() => r())));
    const url = `http://127.0.0.1:${(resetting.address() as AddressInfo).port}`;
    const { constants: c } = http2;
    for (const code of [c.NGHTTP2_REFUSED_STREAM, c.NGHTTP2_CANCEL, c.NGHTTP2_ENHANCE_YOUR_CALM, c.NGHTTP2_INTERNAL_ERROR, c.NGHTTP2_HTTP_1_1_REQUIRED, c.NGHTTP2_PROTOCOL_ERROR]) {
      const call = (kind: 'lean' | 'connect') => createClient(ReadinessService, client(kind, url)).getReadiness({}, { headers: { 'x-reset': String(code) } });
      const fromConnect = await failureOf(call('connect'));
      expect(await failureOf(call('lean')), `RST_STREAM ${code}`).toEqual(fromConnect);
    }
  });

  it('sends the request as connect-node does (path, headers, body bytes)', async () => {
    const seen: { path: string; headers: Record<string, unknown>; body: string }[] = [];
    const echo = http2.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { ':authority': _a, ':scheme': _s, 'user-agent': _u, ...headers } = req.headers;
        seen.push({ path: req.url, headers, body: Buffer.concat(chunks).toString('hex') });
        res.writeHead(200, { 'content-type': 'application/proto' });
        res.end(toBinary(ListTransactionsResponseSchema, create(ListTransactionsResponseSchema, { nextCursor: 'next' })));
      });
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    open.push(() => new Promise((r) => echo.close(() => r())));
    const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    for (const kind of ['connect', 'lean'] as const) {
      const c = createClient(CalculationService, client(kind, `${url}/prefix`));
      expect((await c.listTransactions({ limit: 3, cursor: 'abc' }, { headers: { 'x-principal': 'p' }, timeoutMs: 9000 })).nextCursor).toBe('next');
    }
    expect(seen).toHaveLength(2);
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[0]).toMatchObject({ path: '/prefix/vat.calculation.v1.CalculationService/ListTransactions', headers: { 'content-type': 'application/proto', 'connect-protocol-version': '1', 'connect-timeout-ms': '9000', 'x-principal': 'p' } });
  });
});
