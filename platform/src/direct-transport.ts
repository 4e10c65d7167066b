import { create, toBinary, toJson, type DescMessage, type DescMethod } from '@bufbuild/protobuf';
import {
  Code,
  ConnectError,
  createContextValues,
  createHandlerContext,
  createMethodImplSpec,
  createServiceImplSpec,
  type ConnectRouter,
  type Interceptor,
  type MethodImplSpec,
  type StreamRequest,
  type StreamResponse,
  type Transport,
  type UnaryRequest,
  type UnaryResponse,
} from '@connectrpc/connect';
import {
  createDeadlineSignal,
  createLinkedAbortController,
  createMethodUrl,
  getAbortSignalReason,
  invokeUnaryImplementation,
  mergeNonProtocolHeaders,
  runStreamingCall,
  transformInvokeImplementation,
} from '@connectrpc/connect/protocol';
import { copyMessage } from './message-copy';

type Context = ReturnType<typeof createHandlerContext>;
type Detail = ConnectError['details'][number];
type HeadersInit = Parameters<Transport['unary']>[3];

const BASE_URL = 'http://in-process';
/** Why a call's signals abort once it is over (a shared reason is free; a missing one is not). */
const FINISHED = new ConnectError('the call has finished', Code.Canceled);

/**
 * A Connect transport that calls service implementations in this process directly: no framing, no
 * protobuf encoding, no HTTP. The server side is the router's own (`invokeUnaryImplementation` /
 * `transformInvokeImplementation` with the same interceptors), so context values, headers, deadlines,
 * cancellation and errors behave as over HTTP/2; test/contract checks that answers are identical.
 *
 * Messages are deep-copied in both directions (compiled per type; far cheaper than encoding):
 * handlers keep running after a caller cancels and may return objects they cache, so sharing them
 * would let one side change the other's state, which the wire never allows.
 */
export function createDirectTransport(routes: (router: ConnectRouter) => void, options: { interceptors: Interceptor[] }): Transport {
  const specs = collectImplementations(routes);
  const specFor = (method: DescMethod): MethodImplSpec => {
    const spec = specs.get(createMethodUrl('', method));
    if (!spec) throw new ConnectError(`no handler registered for ${createMethodUrl('', method)}`, Code.Unimplemented);
    return spec;
  };
  const request = (method: DescMethod, header: HeadersInit | undefined) => ({
    service: method.parent,
    requestMethod: 'POST',
    url: createMethodUrl(BASE_URL, method),
    header: new Headers(header),
    contextValues: createContextValues(),
  });
  return {
    async unary(method, signal, timeoutMs, header, input) {
      const spec = specFor(method);
      const deadline = timeoutMs !== undefined && timeoutMs > 0 ? timeoutMs : undefined;
      return callerSide(signal, deadline, (callSignal) =>
        serveUnary(spec, { stream: false, method, message: create(method.input, input), signal: callSignal, ...request(method, header) }, deadline, options.interceptors),
      );
    },
    async stream(method, signal, timeoutMs, header, input) {
      const spec = specFor(method);
      const deadline = timeoutMs !== undefined && timeoutMs > 0 ? timeoutMs : undefined;
      return runStreamingCall({
        signal,
        timeoutMs: deadline,
        req: { stream: true, method, message: input, ...request(method, header) },
        next: (req) => serveStream(spec, req, deadline, options.interceptors),
      });
    },
  };
}

/**
 * The caller's half of a unary call, as Connect's `runUnaryCall` does it (the call's signal joins the
 * caller's signal and the deadline; a call cut short fails with Canceled or DeadlineExceeded), but
 * ends the signal with a shared reason: aborting without one builds a DOMException, which was the
 * costliest step of an in-process call.
 */
async function callerSide<T>(signal: AbortSignal | undefined, timeoutMs: number | undefined, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = createDeadlineSignal(timeoutMs);
  const controller = createLinkedAbortController(signal, deadline.signal);
  try {
    return await call(controller.signal);
  } catch (e) {
    const error = controller.signal.aborted ? ConnectError.from(getAbortSignalReason(controller.signal), Code.Canceled) : ConnectError.from(e);
    controller.abort(error);
    throw error;
  } finally {
    deadline.cleanup();
    controller.abort(FINISHED);
  }
}

/** Runs `routes` against a router that records implementations instead of building HTTP handlers. */
function collectImplementations(routes: (router: ConnectRouter) => void): Map<string, MethodImplSpec> {
  const specs = new Map<string, MethodImplSpec>();
  const noOptions = (options: object | undefined) => {
    if (options !== undefined) throw new Error('the direct transport runs every service with the transport interceptors; per-service handler options are not supported');
  };
  const router: ConnectRouter = {
    get handlers(): never {
      throw new Error('the direct transport calls implementations; it has no HTTP handlers');
    },
    service(service, implementation, options) {
      noOptions(options);
      for (const spec of Object.values(createServiceImplSpec(service, implementation).methods)) specs.set(createMethodUrl('', spec.method), spec);
      return this;
    },
    rpc(method, impl, options) {
      noOptions(options);
      specs.set(createMethodUrl('', method), createMethodImplSpec(method, impl) as MethodImplSpec);
      return this;
    },
  };
  routes(router);
  return specs;
}

/** The handler's context, as the Connect handler builds it from an HTTP request (fresh context values). */
function serverContext<I extends DescMessage, O extends DescMessage>(req: UnaryRequest<I, O> | StreamRequest<I, O>, timeoutMs: number | undefined): Context {
  return createHandlerContext({
    service: req.service,
    method: req.method,
    protocolName: 'direct',
    requestMethod: req.requestMethod,
    url: req.url,
    timeoutMs,
    requestSignal: req.signal,
    requestHeader: req.header,
    contextValues: createContextValues(),
  });
}

async function serveUnary<I extends DescMessage, O extends DescMessage>(spec: MethodImplSpec, req: UnaryRequest<I, O>, timeoutMs: number | undefined, interceptors: Interceptor[]): Promise<UnaryResponse<I, O>> {
  if (req.signal.aborted) throw getAbortSignalReason(req.signal);
  const context = serverContext(req, timeoutMs);
  try {
    const output = invokeUnaryImplementation(spec as MethodImplSpec<I, O> & { kind: 'unary' }, context, copyMessage(req.method.input, req.message), interceptors);
    const message = copyMessage(req.method.output, await raceSignal(req.signal, output));
    return { stream: false, service: req.service, method: req.method, header: context.responseHeader, trailer: context.responseTrailer, message };
  } catch (e) {
    throw wireError(e, context);
  } finally {
    context.abort(FINISHED);
  }
}

/**
 * Like the Connect handler, answers once the first message (or the error) is there, so headers set
 * before it are visible; then pulls one message per read (back-pressure). A cancelled call returns
 * the handler's iterator, so its `finally` blocks (cursors, pooled connections) run.
 */
async function serveStream<I extends DescMessage, O extends DescMessage>(spec: MethodImplSpec, req: StreamRequest<I, O>, timeoutMs: number | undefined, interceptors: Interceptor[]): Promise<StreamResponse<I, O>> {
  if (req.signal.aborted) throw getAbortSignalReason(req.signal);
  const context = serverContext(req, timeoutMs);
  const input = mapIterable(req.message, (m) => copyMessage(req.method.input, m));
  const it = transformInvokeImplementation(spec as MethodImplSpec<I, O>, context, interceptors)(input)[Symbol.asyncIterator]();
  req.signal.addEventListener('abort', () => void it.return?.().catch(() => undefined), { once: true });
  const pull = () =>
    raceSignal(req.signal, it.next()).then(
      (r) => {
        if (r.done) context.abort(FINISHED);
        return r.done ? r : { done: false as const, value: copyMessage(req.method.output, r.value) };
      },
      (e: unknown) => {
        throw wireError(e, context);
      },
    );
  let first: ReturnType<typeof pull> | undefined = pull();
  await first.catch(() => undefined);
  const message: StreamResponse<I, O>['message'] = {
    [Symbol.asyncIterator]: () => ({
      next() {
        const r = first ?? pull();
        first = undefined;
        return r;
      },
    }),
  };
  return { stream: true, service: req.service, method: req.method, header: context.responseHeader, trailer: context.responseTrailer, message };
}

/**
 * The error a Connect client reads from the wire for what the handler threw: other errors become
 * `internal error` (no internals leak), metadata is the response headers, trailers and the error's
 * own non-protocol headers, details arrive encoded and `isWireError` is set.
 */
function wireError(reason: unknown, context: Context): ConnectError {
  context.abort(reason);
  const error = reason instanceof ConnectError ? reason : new ConnectError('internal error', Code.Internal, undefined, undefined, reason);
  const metadata = new Headers(context.responseHeader);
  if (!error.isWireError) mergeNonProtocolHeaders(metadata, error.metadata);
  context.responseTrailer.forEach((value, key) => metadata.append(key, value));
  const wire = new ConnectError(error.rawMessage, error.code, metadata);
  wire.details = error.details.map(encodedDetail);
  wire.isWireError = true;
  return wire;
}

/** An outgoing error detail as the client decodes it from the wire (error path only). */
function encodedDetail(detail: Detail): Detail {
  if (!('desc' in detail)) return detail;
  const message = create(detail.desc, detail.value);
  let debug: ReturnType<typeof toJson> | undefined;
  try {
    debug = toJson(detail.desc, message);
  } catch {
    debug = undefined;
  }
  return { type: detail.desc.typeName, value: toBinary(detail.desc, message), debug };
}

function mapIterable<T, U>(source: AsyncIterable<T>, f: (value: T) => U): AsyncIterable<U> {
  return {
    [Symbol.asyncIterator]() {
      const it = source[Symbol.asyncIterator]();
      return { next: () => it.next().then((r) => (r.done ? r : { done: false, value: f(r.value) })) };
    },
  };
}

/** Settles with `promise`, or rejects with the signal's reason as soon as the call is cancelled. */
function raceSignal<T>(signal: AbortSignal, promise: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(getAbortSignalReason(signal));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
