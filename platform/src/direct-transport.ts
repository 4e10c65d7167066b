import { create, fromBinary, toBinary, toJson, type DescMessage, type DescMethod, type DescService, type MessageShape } from '@bufbuild/protobuf';
import {
  Code,
  ConnectError,
  createContextValues,
  createHandlerContext,
  createMethodImplSpec,
  createServiceImplSpec,
  type ConnectRouter,
  type HandlerContext,
  type Interceptor,
  type MethodImplSpec,
  type StreamRequest,
  type StreamResponse,
  type Transport,
  type UnaryRequest,
  type UnaryResponse,
} from '@connectrpc/connect';
import {
  createMethodUrl,
  getAbortSignalReason,
  mergeNonProtocolHeaders,
  runStreamingCall,
  transformInvokeImplementation,
} from '@connectrpc/connect/protocol';
import { codeToHttpStatus, errorToJsonBytes, trailerMux } from '@connectrpc/connect/protocol-connect';
import { copyMessage } from './message-copy';

type Context = ReturnType<typeof createHandlerContext>;
/** What an error's mapping reads of a handler context (Connect's or the direct unary one). */
type ErrorContext = Pick<Context, 'abort' | 'responseHeader' | 'responseTrailer'>;
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
      const spec = specFor(method) as MethodImplSpec & { kind: 'unary' };
      return directUnary(spec, signal, timeoutMs !== undefined && timeoutMs > 0 ? timeoutMs : undefined, new Headers(header), create(method.input, input), options.interceptors) as Promise<UnaryResponse<typeof method.input, typeof method.output>>;
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
 * One unary call, as the router's handler and Connect's caller side run it together (the server
 * interceptors around the implementation; the caller's signal and the deadline end the call with
 * Canceled or DeadlineExceeded; the handler's signal aborts when the call ends, whatever the end),
 * built for the in-process path: the handler's signal is an AbortController made only when the
 * handler (or an interceptor) reads it, its response headers and trailers only when touched, and
 * nothing else is allocated per call beyond one listener on the caller's signal. Connect's own
 * pieces (`createHandlerContext`, `createLinkedAbortController`, `createDeadlineSignal`) made four
 * AbortControllers, six listeners, two abort events and three header copies per call: about a
 * tenth of an in-process authenticated GET.
 */
async function directUnary<I extends DescMessage, O extends DescMessage>(
  spec: MethodImplSpec<I, O> & { kind: 'unary' },
  callerSignal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  header: Headers,
  input: MessageShape<I>,
  interceptors: Interceptor[],
): Promise<UnaryResponse<I, O>> {
  const call = new UnaryCall(callerSignal, timeoutMs);
  if (call.ended) throw call.failure();
  const req = new DirectUnaryRequest(spec.method, header, copyMessage(spec.method.input, input), call);
  const context = new DirectHandlerContext(req, call);
  try {
    const message = await runUnary(spec, req, context, call, interceptors);
    return { stream: false, service: spec.method.parent, method: spec.method, header: context.answerHeader(), trailer: context.answerTrailer(), message: copyMessage(spec.method.output, message as MessageShape<O>) };
  } catch (e) {
    if (call.cut) throw call.failure();
    throw wireError(e, context);
  } finally {
    call.finish();
  }
}

/** The server interceptors around the implementation, as `invokeUnaryImplementation` runs them; the output message. */
async function runUnary(spec: MethodImplSpec & { kind: 'unary' }, req: DirectUnaryRequest, context: DirectHandlerContext, call: UnaryCall, interceptors: Interceptor[]): Promise<MessageShape<DescMessage>> {
  const implementation: UnaryFn = async (req) => {
    const output = await spec.impl(req.message as never, context.forRequest(req));
    return { stream: false, service: spec.method.parent, method: spec.method, header: context.responseHeader, trailer: context.responseTrailer, message: create(spec.method.output, output as never) } as UnaryResponse;
  };
  let next = implementation;
  for (let i = interceptors.length - 1; i >= 0; i--) next = interceptors[i]!(next as never) as UnaryFn;
  const res = await call.race(next(req as unknown as UnaryRequest));
  // An interceptor may answer with other headers than the context's (as `invokeUnaryImplementation` copies them).
  if (res.header !== context.responseHeader) context.replaceHeader(res.header);
  if (res.trailer !== context.responseTrailer) context.replaceTrailer(res.trailer);
  return res.message as MessageShape<DescMessage>;
}

/** A unary call's HTTP answer in the Connect protocol: status, headers (trailers as `trailer-` headers) and body. */
export type ServedUnary = { status: number; header: Headers; body: Uint8Array };

/**
 * One unary call served from its request bytes, as Connect's unary handler for the Connect protocol
 * (binary, uncompressed) serves it: the input parsed (`parse binary: …` Internal when it is not the
 * method's message), the server interceptors around the implementation, the answer encoded with the
 * context's headers and trailers, or the error as Connect's JSON with its HTTP status and metadata.
 * `call` ends with the client's reset stream (cancel) and aborts the handler's signal when the call ends.
 */
export async function serveUnary(spec: MethodImplSpec & { kind: 'unary' }, call: UnaryCall, header: Headers, url: string, body: Uint8Array, interceptors: Interceptor[]): Promise<ServedUnary> {
  let input: MessageShape<DescMessage> | undefined;
  let unreadable: ConnectError | undefined;
  try {
    input = fromBinary(spec.method.input, body);
  } catch (e) {
    unreadable = new ConnectError(`parse binary: ${e instanceof Error ? e.message : String(e)}`, Code.Internal);
  }
  const req = new DirectUnaryRequest(spec.method, header, input, call, url);
  const context = new DirectHandlerContext(req, call, 'connect');
  try {
    if (unreadable) throw unreadable;
    const output = await runUnary(spec, req, context, call, interceptors);
    const answer = trailerMux(context.answerHeader(), context.answerTrailer());
    answer.set('content-type', 'application/proto');
    return { status: 200, header: answer, body: toBinary(spec.method.output, output) };
  } catch (e) {
    context.abort(e);
    const error = e instanceof ConnectError ? e : new ConnectError('internal error', Code.Internal, undefined, undefined, e);
    const responseHeader = context.answerHeader();
    responseHeader.set('content-type', 'application/json');
    // As Connect's handler: an error parsed from the wire relays only its payload, not its metadata.
    if (!error.isWireError) mergeNonProtocolHeaders(responseHeader, error.metadata);
    return { status: codeToHttpStatus(error.code), header: trailerMux(responseHeader, context.answerTrailer()), body: errorToJsonBytes(error, undefined) };
  } finally {
    call.finish();
  }
}

type UnaryFn = (req: UnaryRequest) => Promise<UnaryResponse>;

/**
 * The life of one unary call: its end by the caller's signal or the deadline (`race`), and the
 * handler's signal, made on first read and aborted when the call ends.
 */
export class UnaryCall {
  private controller: AbortController | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private reject: ((reason: unknown) => void) | undefined;
  /** Why the caller's signal or the deadline cut the call short; undefined while they have not. */
  private reason: unknown;
  cut = false;
  ended = false;
  readonly deadline: number | undefined;

  constructor(
    private readonly callerSignal: AbortSignal | undefined,
    timeoutMs: number | undefined,
  ) {
    if (callerSignal?.aborted) {
      this.stop(getAbortSignalReason(callerSignal));
      return;
    }
    callerSignal?.addEventListener('abort', this);
    if (timeoutMs !== undefined) {
      this.deadline = Date.now() + timeoutMs;
      this.timer = setTimeout(() => this.stop(new ConnectError('the operation timed out', Code.DeadlineExceeded)), timeoutMs);
    }
  }

  /** The caller's signal aborted (an EventListener object: no closure per call). */
  handleEvent(): void {
    this.stop(getAbortSignalReason(this.callerSignal!));
  }

  /** The error the caller sees once the call was cut short (as Connect's `runUnaryCall` makes it). */
  failure(): ConnectError {
    return ConnectError.from(this.reason, Code.Canceled);
  }

  /** The handler's signal: aborted with the reason the call was cut short, or with FINISHED when it ends. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.cut) this.controller.abort(this.reason);
      else if (this.ended) this.controller.abort(FINISHED);
    }
    return this.controller.signal;
  }

  /** Settles with `work`, or rejects as soon as the call is cut short. */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.callerSignal === undefined && this.timer === undefined) return work;
    return new Promise<T>((resolve, reject) => {
      if (this.cut) reject(this.reason);
      else this.reject = reject;
      work.then(resolve, reject);
    });
  }

  /** Cuts the call short from outside (a server's stream reset by its client). */
  cancel(reason: unknown): void {
    this.stop(reason);
  }

  /** Aborts the handler's signal with the reason the work failed (as the router's handler context does). */
  abortHandler(reason: unknown): void {
    if (this.controller && !this.controller.signal.aborted) this.controller.abort(reason);
  }

  private stop(reason: unknown): void {
    if (this.cut || this.ended) return;
    this.cut = true;
    this.reason = reason;
    this.controller?.abort(reason);
    this.reject?.(reason);
    this.release();
  }

  finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.controller?.abort(FINISHED);
    this.release();
  }

  private release(): void {
    this.ended = true;
    this.reject = undefined;
    this.callerSignal?.removeEventListener('abort', this);
    if (this.timer !== undefined) clearTimeout(this.timer);
  }
}

/** The request the server interceptors see; its signal is the call's, made when read. */
class DirectUnaryRequest {
  readonly stream = false;
  readonly requestMethod = 'POST';
  readonly service: DescService;
  readonly url: string;
  readonly contextValues = createContextValues();

  constructor(
    readonly method: DescMethod,
    readonly header: Headers,
    readonly message: unknown,
    private readonly call: UnaryCall,
    url?: string,
  ) {
    this.service = method.parent;
    this.url = url ?? createMethodUrl(BASE_URL, method);
  }

  get signal(): AbortSignal {
    return this.call.signal;
  }
}

/**
 * The handler's context, as the Connect handler builds it from an HTTP request: the request headers
 * are the call's (a copy of the caller's), the response headers and trailers made when first used.
 */
class DirectHandlerContext implements HandlerContext {
  readonly method: DescMethod;
  readonly service: DescService;
  readonly requestMethod = 'POST';
  readonly url: string;
  requestHeader: Headers;
  values: HandlerContext['values'];
  private header: Headers | undefined;
  private trailer: Headers | undefined;

  constructor(
    req: DirectUnaryRequest,
    private readonly call: UnaryCall,
    readonly protocolName = 'direct',
  ) {
    this.method = req.method;
    this.service = req.service;
    this.url = req.url;
    this.requestHeader = req.header;
    this.values = req.contextValues;
  }

  get signal(): AbortSignal {
    return this.call.signal;
  }

  timeoutMs(): number | undefined {
    return this.call.deadline === undefined ? undefined : this.call.deadline - Date.now();
  }

  get responseHeader(): Headers {
    return (this.header ??= new Headers());
  }

  get responseTrailer(): Headers {
    return (this.trailer ??= new Headers());
  }

  /** The context the implementation gets: the headers and values the interceptors passed on. */
  forRequest(req: UnaryRequest): HandlerContext {
    this.requestHeader = req.header;
    this.values = req.contextValues;
    return this;
  }

  replaceHeader(header: Headers): void {
    this.header = new Headers(header);
  }

  replaceTrailer(trailer: Headers): void {
    this.trailer = new Headers(trailer);
  }

  /** The response headers the caller reads (fresh ones when the handler set none). */
  answerHeader(): Headers {
    return this.header ?? new Headers();
  }

  answerTrailer(): Headers {
    return this.trailer ?? new Headers();
  }

  /** Ends the handler's signal with `reason` (an error); the call's end aborts it otherwise. */
  abort(reason: unknown): void {
    this.call.abortHandler(reason);
  }
}

/** Runs `routes` against a router that records implementations instead of building HTTP handlers. */
export function collectImplementations(routes: (router: ConnectRouter) => void): Map<string, MethodImplSpec> {
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
function wireError(reason: unknown, context: ErrorContext): ConnectError {
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
