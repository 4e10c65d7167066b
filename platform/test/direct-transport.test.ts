import { describe, expect, it, vi } from 'vitest';
import { create, isMessage } from '@bufbuild/protobuf';
import {
  Code,
  ConnectError,
  createClient,
  createContextKey,
  createContextValues,
  createRouterTransport,
  type ConnectRouter,
  type HandlerContext,
  type Interceptor,
  type ServiceImpl,
  type Transport,
} from '@connectrpc/connect';
import { ErrorInfoSchema } from '@vat/gen/google/rpc/error_details_pb';
import { CalculationService, ListTransactionsRequestSchema } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { GetReadinessResponseSchema, ReadinessCheckSchema, ReadinessService } from '@vat/gen/vat/platform/v1/readiness_service_pb';
import { createDirectTransport } from '../src/direct-transport';
import { rpcError } from '../src/rpc-errors';
import { failureOf } from './rpc-failure';

const CALLER = createContextKey<string>('nobody', { description: 'set by the test interceptor' });

/** Puts the `x-caller` header into the context, like the principal interceptor does. */
const callerInterceptor: Interceptor = (next) => async (req) => {
  const caller = req.header.get('x-caller');
  if (caller) req.contextValues.set(CALLER, caller);
  return next(req);
};

function tracing(name: string, trace: string[]): Interceptor {
  return (next) => async (req) => {
    trace.push(`${name}>`);
    const res = await next(req);
    trace.push(`<${name}`);
    return res;
  };
}

type Services = { readiness?: Partial<ServiceImpl<typeof ReadinessService>>; calculation?: Partial<ServiceImpl<typeof CalculationService>> };

/** The same routes and interceptors behind the direct transport and the router transport. */
function bothTransports(services: Services, interceptors: Interceptor[] = [callerInterceptor]): [[string, Transport], [string, Transport]] {
  const routes = (router: ConnectRouter) => {
    if (services.readiness) router.service(ReadinessService, services.readiness);
    if (services.calculation) router.service(CalculationService, services.calculation);
  };
  return [
    ['direct', createDirectTransport(routes, { interceptors })],
    ['router', createRouterTransport(routes, { router: { interceptors } })],
  ];
}


const never = (signal: AbortSignal) => new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));

describe('direct transport runs the service like the Connect router', () => {
  it('runs the server interceptors around the handler in the router order', async () => {
    const trace: string[] = [];
    const readiness = { getReadiness: () => (trace.push('handler'), {}) };
    for (const [name, transport] of bothTransports({ readiness }, [tracing('outer', trace), tracing('inner', trace)])) {
      trace.length = 0;
      await createClient(ReadinessService, transport).getReadiness({});
      expect(trace, name).toEqual(['outer>', 'inner>', 'handler', '<inner', '<outer']);
    }
  });

  it('gives the handler the context values its interceptors set, never the caller-side ones', async () => {
    const readiness = { getReadiness: (_: unknown, ctx: HandlerContext) => ({ service: `${ctx.values.get(CALLER)}|${ctx.requestHeader.get('x-caller')}` }) };
    for (const [name, transport] of bothTransports({ readiness })) {
      const client = createClient(ReadinessService, transport);
      expect((await client.getReadiness({}, { headers: { 'X-Caller': 'gateway' } })).service, name).toBe('gateway|gateway');
      const forged = createContextValues().set(CALLER, 'forged');
      expect((await client.getReadiness({}, { contextValues: forged })).service, name).toBe('nobody|null');
    }
  });

  it('passes response headers and trailers set by the handler to the caller', async () => {
    const readiness = {
      getReadiness(_: unknown, ctx: HandlerContext) {
        ctx.responseHeader.set('x-answered-by', 'fake');
        ctx.responseTrailer.set('x-rows', '3');
        return {};
      },
    };
    for (const [name, transport] of bothTransports({ readiness })) {
      let header: Headers | undefined;
      let trailer: Headers | undefined;
      await createClient(ReadinessService, transport).getReadiness({}, { onHeader: (h) => (header = h), onTrailer: (t) => (trailer = t) });
      expect(header?.get('x-answered-by'), name).toBe('fake');
      expect(trailer?.get('x-rows'), name).toBe('3');
    }
  });

  it('normalizes a partial answer into a full message', async () => {
    for (const [name, transport] of bothTransports({ readiness: { getReadiness: () => ({ ready: true }) } })) {
      const res = await createClient(ReadinessService, transport).getReadiness({});
      expect(isMessage(res, GetReadinessResponseSchema), name).toBe(true);
      expect(res, name).toEqual(create(GetReadinessResponseSchema, { ready: true }));
    }
  });

  it('lets neither side change the other side’s messages', async () => {
    const cached = create(GetReadinessResponseSchema, { service: 'cached', checks: [{ name: 'db', ok: true }] });
    let seenLimit = 0;
    const services: Services = {
      readiness: { getReadiness: () => cached },
      calculation: {
        listTransactions(req) {
          req.limit = 99;
          return new Promise((resolve) => setTimeout(() => resolve((seenLimit = req.limit ?? 0, {})), 5));
        },
      },
    };
    for (const [name, transport] of bothTransports(services)) {
      const answer = await createClient(ReadinessService, transport).getReadiness({});
      answer.checks.push(create(ReadinessCheckSchema, { name: 'added' }));
      answer.checks[0]!.ok = false;
      expect(cached.checks, name).toEqual([expect.objectContaining({ name: 'db', ok: true })]);
      const request = create(ListTransactionsRequestSchema, { limit: 5 });
      const call = createClient(CalculationService, transport).listTransactions(request);
      request.limit = 7;
      await call;
      expect(request.limit, name).toBe(7);
      expect(seenLimit, name).toBe(99);
    }
  });

  it('hands the deadline to the handler and ends the call with DeadlineExceeded', async () => {
    let seen: { timeoutMs?: number; reason?: unknown } = {};
    const readiness = {
      async getReadiness(_: unknown, ctx: HandlerContext) {
        seen.timeoutMs = ctx.timeoutMs();
        return never(ctx.signal).catch((e: unknown) => {
          seen.reason = e;
          throw e;
        });
      },
    };
    for (const [name, transport] of bothTransports({ readiness })) {
      seen = {};
      const failure = await failureOf(createClient(ReadinessService, transport).getReadiness({}, { timeoutMs: 50 }));
      expect(failure.code, name).toBe(Code.DeadlineExceeded);
      expect(seen.timeoutMs, name).toBeGreaterThan(0);
      expect(seen.timeoutMs, name).toBeLessThanOrEqual(50);
      await vi.waitFor(() => expect((seen.reason as ConnectError | undefined)?.code, name).toBe(Code.DeadlineExceeded));
    }
  });

  it('cancels the handler when the caller aborts, and the caller sees Canceled', async () => {
    let handlerSignal: AbortSignal | undefined;
    const readiness = {
      getReadiness(_: unknown, ctx: HandlerContext) {
        handlerSignal = ctx.signal;
        return never(ctx.signal);
      },
    };
    for (const [name, transport] of bothTransports({ readiness })) {
      const controller = new AbortController();
      const call = createClient(ReadinessService, transport).getReadiness({}, { signal: controller.signal });
      await vi.waitFor(() => expect(handlerSignal).toBeDefined());
      controller.abort();
      expect((await failureOf(call)).code, name).toBe(Code.Canceled);
      expect(handlerSignal?.aborted, name).toBe(true);
      handlerSignal = undefined;
    }
  });
});

describe('direct transport ends a unary call like the router (its signal made only when read)', () => {
  it('aborts the handler\'s signal once the call has answered', async () => {
    let signal: AbortSignal | undefined;
    const readiness = {
      getReadiness(_: unknown, ctx: HandlerContext) {
        signal = ctx.signal;
        expect(signal.aborted).toBe(false);
        return create(GetReadinessResponseSchema, { ready: true });
      },
    };
    for (const [name, transport] of bothTransports({ readiness })) {
      signal = undefined;
      expect((await createClient(ReadinessService, transport).getReadiness({})).ready, name).toBe(true);
      await vi.waitFor(() => expect(signal?.aborted, name).toBe(true));
    }
  });

  it('ends a call whose handler never reads its signal: Canceled when the caller aborts, DeadlineExceeded at the deadline', async () => {
    const readiness = { getReadiness: () => new Promise<never>(() => undefined) };
    for (const [name, transport] of bothTransports({ readiness })) {
      const client = createClient(ReadinessService, transport);
      const controller = new AbortController();
      const call = client.getReadiness({}, { signal: controller.signal });
      setTimeout(() => controller.abort(), 20);
      expect((await failureOf(call)).code, name).toBe(Code.Canceled);
      expect((await failureOf(client.getReadiness({}, { timeoutMs: 30 }))).code, name).toBe(Code.DeadlineExceeded);
    }
  });

  it('refuses a call whose caller signal is already aborted (Canceled); the direct transport does not run the handler', async () => {
    let ran = 0;
    const readiness = {
      getReadiness() {
        ran++;
        return create(GetReadinessResponseSchema, { ready: true });
      },
    };
    for (const [name, transport] of bothTransports({ readiness })) {
      const controller = new AbortController();
      controller.abort();
      expect((await failureOf(createClient(ReadinessService, transport).getReadiness({}, { signal: controller.signal }))).code, name).toBe(Code.Canceled);
      if (name === 'direct') expect(ran).toBe(0);
    }
  });

  it('leaves no listener on the caller\'s signal after the call', async () => {
    const readiness = { getReadiness: () => create(GetReadinessResponseSchema, { ready: true }) };
    const [[, direct]] = bothTransports({ readiness });
    const controller = new AbortController();
    const added: unknown[] = [];
    const removed: unknown[] = [];
    const add = controller.signal.addEventListener.bind(controller.signal);
    const remove = controller.signal.removeEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((type: string, l: never, o?: never) => (added.push(l), add(type, l, o))) as never;
    controller.signal.removeEventListener = ((type: string, l: never, o?: never) => (removed.push(l), remove(type, l, o))) as never;
    const client = createClient(ReadinessService, direct);
    for (let i = 0; i < 3; i++) await client.getReadiness({}, { signal: controller.signal });
    expect(added.length).toBe(3);
    expect(removed).toEqual(added);
  });
});

describe('direct transport maps errors as the wire does', () => {
  async function sameFailure(services: Services, call: (t: Transport) => Promise<unknown>, interceptors?: Interceptor[]) {
    const [[, direct], [, router]] = bothTransports(services, interceptors);
    const fromDirect = await failureOf(call(direct));
    expect(fromDirect).toEqual(await failureOf(call(router)));
    return fromDirect;
  }
  const ready = (t: Transport) => createClient(ReadinessService, t).getReadiness({});

  it('keeps code, message, ErrorInfo details and metadata of a ConnectError', async () => {
    const err = rpcError(Code.FailedPrecondition, 'not_eligible', 'The seller is not eligible.', { country: 'DE' });
    err.metadata.set('x-retry', '5');
    const failure = await sameFailure({ readiness: { getReadiness: () => Promise.reject(err) } }, ready);
    expect(failure).toMatchObject({ code: Code.FailedPrecondition, rawMessage: 'The seller is not eligible.', retry: '5', wire: true, cause: undefined });
    expect(failure.info).toEqual([create(ErrorInfoSchema, { reason: 'not_eligible', domain: 'vat', metadata: { country: 'DE' } })]);
  });

  it('turns any other error into Internal "internal error", hiding its message', async () => {
    const failure = await sameFailure({ readiness: { getReadiness: () => Promise.reject(new TypeError('relation "secret" does not exist')) } }, ready);
    expect(failure).toMatchObject({ code: Code.Internal, rawMessage: 'internal error' });
  });

  it('maps an error thrown by a server interceptor the same way', async () => {
    const refuse: Interceptor = () => async () => {
      throw new ConnectError('caller is not the gateway', Code.Unauthenticated);
    };
    const failure = await sameFailure({ readiness: { getReadiness: () => ({}) } }, ready, [refuse]);
    expect(failure).toMatchObject({ code: Code.Unauthenticated, rawMessage: 'caller is not the gateway' });
  });

  it('answers Unimplemented for a method the service does not implement', async () => {
    const failure = await sameFailure({ calculation: {} }, (t) => createClient(CalculationService, t).listTransactions({}));
    expect(failure).toMatchObject({ code: Code.Unimplemented, rawMessage: 'vat.calculation.v1.CalculationService.ListTransactions is not implemented' });
  });
});

describe('direct transport streams', () => {
  const exportOf = (t: Transport, opts: { signal?: AbortSignal; timeoutMs?: number } = {}) => createClient(CalculationService, t).exportTransactions({}, opts)[Symbol.asyncIterator]();

  it('pulls one message per read (back-pressure)', async () => {
    let produced = 0;
    const [[, direct]] = bothTransports({
      calculation: {
        async *exportTransactions() {
          for (let i = 0; i < 5; i++) {
            produced++;
            yield { csvChunk: `row ${i}\n` };
          }
        },
      },
    });
    const it = exportOf(direct);
    expect((await it.next()).value?.csvChunk).toBe('row 0\n');
    expect(produced).toBe(1);
    const rest: string[] = [];
    for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value.csvChunk);
    expect(rest).toEqual(['row 1\n', 'row 2\n', 'row 3\n', 'row 4\n']);
  });

  it('answers once the first message is there, with the headers set before it', async () => {
    const calculation = {
      async *exportTransactions(_: unknown, ctx: HandlerContext) {
        ctx.responseHeader.set('x-export-rows', '2');
        yield { csvChunk: 'header\n' };
      },
    };
    const method = CalculationService.method.exportTransactions;
    for (const [name, transport] of bothTransports({ calculation })) {
      const res = await transport.stream(method, undefined, undefined, undefined, (async function* () {
        yield {};
      })());
      expect(res.header.get('x-export-rows'), name).toBe('2');
    }
  });

  it('delivers an error raised before the first message and after it as the router does', async () => {
    for (const before of [0, 2]) {
      const calculation = {
        async *exportTransactions() {
          for (let i = 0; i < before; i++) yield { csvChunk: `row ${i}\n` };
          throw rpcError(Code.InvalidArgument, 'invalid_date_range', '`from` must not be after `to`.');
        },
      };
      const outcomes = [];
      for (const [, transport] of bothTransports({ calculation })) {
        const chunks: string[] = [];
        const failure = await failureOf(
          (async () => {
            for await (const m of createClient(CalculationService, transport).exportTransactions({})) chunks.push(m.csvChunk);
          })(),
        );
        outcomes.push({ chunks, failure });
      }
      expect(outcomes[0]).toEqual(outcomes[1]);
      expect(outcomes[0]!.chunks).toHaveLength(before);
      expect(outcomes[0]!.failure.info[0]?.reason).toBe('invalid_date_range');
    }
  });

  it('releases the handler (its finally runs) when the caller cancels mid-stream', async () => {
    let released = false;
    const [[, direct]] = bothTransports({
      calculation: {
        async *exportTransactions() {
          try {
            for (let i = 0; ; i++) yield { csvChunk: `row ${i}\n` };
          } finally {
            released = true;
          }
        },
      },
    });
    const controller = new AbortController();
    const it = exportOf(direct, { signal: controller.signal });
    await it.next();
    controller.abort();
    expect((await failureOf(it.next())).code).toBe(Code.Canceled);
    await vi.waitFor(() => expect(released).toBe(true));
  });

  it('ends a stream that outlives its deadline with DeadlineExceeded', async () => {
    const calculation = {
      async *exportTransactions(_: unknown, ctx: HandlerContext) {
        yield { csvChunk: 'header\n' };
        await never(ctx.signal);
      },
    };
    for (const [name, transport] of bothTransports({ calculation })) {
      const it = exportOf(transport, { timeoutMs: 50 });
      expect((await it.next()).value?.csvChunk, name).toBe('header\n');
      expect((await failureOf(it.next())).code, name).toBe(Code.DeadlineExceeded);
    }
  });
});
