import { constants as h2, type Http2ServerRequest, type Http2ServerResponse, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http2';
import { create, fromBinary, isMessage, toBinary, type DescMessage, type DescMethodUnary, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { Code, ConnectError, appendHeaders, createContextValues, type ConnectRouter, type ContextValues, type Interceptor, type MethodImplSpec, type Transport, type UnaryRequest, type UnaryResponse } from '@connectrpc/connect';
import { createDeadlineSignal, createLinkedAbortController, getAbortSignalReason } from '@connectrpc/connect/protocol';
import { errorFromJsonBytes, parseTimeout, requestHeader, trailerDemux, validateResponseWithCompression } from '@connectrpc/connect/protocol-connect';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { collectImplementations, serveUnary, UnaryCall } from './direct-transport';

/** Options of `createH2Transport`. */
export type H2TransportOptions = {
  baseUrl: string;
  interceptors?: Interceptor[];
  /** The connection to share (e.g. to close it from outside); one of its own otherwise. */
  sessionManager?: Http2SessionManager;
  /** Largest answer read, in bytes (connect's default: 4 GiB - 1). */
  readMaxBytes?: number;
};

type AnyUnaryRequest = UnaryRequest<DescMessage, DescMessage>;
type AnyUnaryResponse = UnaryResponse<DescMessage, DescMessage>;

/** A signal that never aborts: a call without a deadline and without the caller's signal makes no controller. */
const NEVER: AbortSignal = new AbortController().signal;

/**
 * The Connect protocol's unary call over HTTP/2 between the deployment's processes, written out:
 * connect-node's transport costs ≈ 180 µs of the caller's CPU per call against ≈ 30 µs for the same
 * request on `node:http2` (test/bench/h2-hop.ts; docs/benchmarks.md): its universal client runs a
 * unary call through async iterables, a sentinel that makes an error object to settle every call, and
 * an abort controller that is aborted (another error) when the call ends. This transport sends the
 * same request (Connect protocol version 1, binary, uncompressed; the same headers), reads the same
 * answer and refuses what connect-node refuses, with connect's own protocol functions (`requestHeader`,
 * `validateResponseWithCompression`, `trailerDemux`, `errorFromJsonBytes`), its interceptors in the
 * same order and its session manager (connection, GOAWAY, reconnect). Streaming calls go through
 * connect-node's transport on the same session manager.
 */
export function createH2Transport(opts: H2TransportOptions): Transport {
  const base = new URL(opts.baseUrl);
  const origin = base.origin;
  const prefix = base.pathname.replace(/\/+$/, '');
  const readMaxBytes = opts.readMaxBytes ?? 0xffffffff;
  const sessions = opts.sessionManager ?? new Http2SessionManager(origin);
  const streaming = createConnectTransport({ baseUrl: opts.baseUrl, httpVersion: '2', acceptCompression: [], sessionManager: sessions, interceptors: opts.interceptors });
  const send = (req: AnyUnaryRequest) => sendUnary(sessions, origin, readMaxBytes, req);
  const chain = (opts.interceptors ?? []).reduceRight<(req: AnyUnaryRequest) => Promise<AnyUnaryResponse>>(
    (next, interceptor) => interceptor(next as never) as unknown as (req: AnyUnaryRequest) => Promise<AnyUnaryResponse>,
    send,
  );
  return {
    async unary<I extends DescMessage, O extends DescMessage>(
      method: DescMethodUnary<I, O>,
      signal: AbortSignal | undefined,
      timeoutMs: number | undefined,
      header: ConstructorParameters<typeof Headers>[0] | undefined,
      input: MessageInitShape<I>,
      contextValues?: ContextValues,
    ): Promise<UnaryResponse<I, O>> {
      const timeout = timeoutMs === undefined || timeoutMs <= 0 ? undefined : timeoutMs;
      // As connect's runUnaryCall: the caller's signal and the deadline abort one controller, whose reason the call
      // rejects with. Without a deadline the caller's signal is that signal itself (the gateway passes one with
      // every call: no controller, no listeners to link and unlink, no abort event when the call ends).
      let callSignal = signal ?? NEVER;
      let finish = () => {};
      if (timeout !== undefined) {
        const deadline = createDeadlineSignal(timeout);
        const controller = createLinkedAbortController(signal, deadline.signal);
        callSignal = controller.signal;
        finish = () => {
          deadline.cleanup();
          // Unlinks the listeners as connect does; the reason is never read (the call has settled).
          if (!controller.signal.aborted) controller.abort(CALL_DONE);
        };
      }
      const req: AnyUnaryRequest = {
        stream: false,
        service: method.parent,
        method: method as unknown as DescMethodUnary<DescMessage, DescMessage>,
        requestMethod: 'POST',
        url: `${origin}${prefix}/${method.parent.typeName}/${method.name}`,
        header: requestHeader('unary', true, timeout, header, true),
        contextValues: contextValues ?? createContextValues(),
        message: isMessage(input, method.input) ? input : create(method.input, input as MessageInitShape<I>),
        signal: callSignal,
      };
      try {
        return (await chain(req)) as unknown as UnaryResponse<I, O>;
      } catch (err) {
        throw callSignal.aborted ? ConnectError.from(getAbortSignalReason(callSignal), Code.Canceled) : ConnectError.from(err);
      } finally {
        finish();
      }
    },
    stream: (...args) => streaming.stream(...args),
  };
}

/** The reason a finished call's controller is aborted with (made once: nothing reads it). */
const CALL_DONE = new ConnectError('the call has finished', Code.Canceled);

async function sendUnary(sessions: Http2SessionManager, origin: string, readMaxBytes: number, req: AnyUnaryRequest): Promise<AnyUnaryResponse> {
  if (req.signal.aborted) throw ConnectError.from(getAbortSignalReason(req.signal), Code.Canceled);
  if (!req.url.startsWith(`${origin}/`)) throw new ConnectError(`cannot make a request to ${req.url}: the http2 session is connected to ${origin}`, Code.Internal);
  const body = toBinary(req.method.input, req.message);
  const headers: OutgoingHttpHeaders = {};
  req.header.forEach((value, key) => {
    headers[key] = value;
  });
  let stream: Awaited<ReturnType<Http2SessionManager['request']>>;
  try {
    stream = await sessions.request('POST', req.url.slice(origin.length), headers, {});
  } catch (err) {
    throw fromNodeReason(err);
  }
  return new Promise<AnyUnaryResponse>((resolve, reject) => {
    let settled = false;
    let status = 0;
    let responseHeaders: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => {
      const reason = ConnectError.from(getAbortSignalReason(req.signal), Code.Canceled);
      fail(reason);
      // As connect-node: a cancelled call resets its stream with CANCEL, a deadline with INTERNAL_ERROR.
      if (!stream.closed) stream.close(reason.code === Code.Canceled ? h2.NGHTTP2_CANCEL : h2.NGHTTP2_INTERNAL_ERROR);
    };
    function fail(err: ConnectError) {
      if (settled) return;
      settled = true;
      if (req.signal !== NEVER) req.signal.removeEventListener('abort', onAbort);
      reject(err);
    }
    if (req.signal !== NEVER) req.signal.addEventListener('abort', onAbort);
    stream.on('response', (h: IncomingHttpHeaders) => {
      status = Number(h[':status'] ?? 0);
      responseHeaders = h;
    });
    stream.on('data', (chunk: Buffer) => {
      sessions.notifyResponseByteRead(stream);
      size += chunk.length;
      if (size > readMaxBytes) {
        fail(new ConnectError(`message size is larger than configured readMaxBytes ${readMaxBytes}`, Code.ResourceExhausted));
        if (!stream.closed) stream.close(h2.NGHTTP2_CANCEL);
        return;
      }
      chunks.push(chunk);
    });
    let endedWithoutAnswer = false;
    stream.on('end', () => {
      if (settled) return;
      // A stream reset before its response (RST_STREAM CANCEL emits no error) ends first and closes next with its
      // code: as connect-node, the code decides (on 'close').
      if (status === 0) {
        endedWithoutAnswer = true;
        return;
      }
      // A connection lost mid-answer (the peer killed) ends the stream with what arrived and a reset code already set
      // (CANCEL, no error event): the reset decides, as in connect-node, where it wins over the short body.
      const reset = fromResetCode(stream.rstCode);
      if (reset) {
        fail(reset);
        return;
      }
      const promised = responseHeaders['content-length'];
      if (promised !== undefined && /^\d+$/.test(promised) && Number(promised) !== size) {
        fail(new ConnectError(`protocol error: promised ${promised} bytes, received ${size}`, Code.InvalidArgument));
        return;
      }
      try {
        const answer = answerOf(req, status, responseHeaders, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
        settled = true;
        if (req.signal !== NEVER) req.signal.removeEventListener('abort', onAbort);
        resolve(answer);
      } catch (err) {
        fail(ConnectError.from(err));
      }
    });
    stream.on('error', (err: Error) => {
      // The server answered and closed while the request was still being written: its answer decides.
      if (stream.writableEnded && (err as { code?: string }).code === 'ERR_STREAM_WRITE_AFTER_END') return;
      fail(fromNodeReason(err));
    });
    stream.on('close', () => {
      if (settled) return;
      const reset = fromResetCode(stream.rstCode);
      if (reset) fail(reset);
      else fail(new ConnectError(endedWithoutAnswer ? 'http/2 stream ended without a response' : 'http/2 stream closed before an answer', Code.Internal));
    });
    stream.end(body);
  });
}

/** The call's answer from a complete HTTP/2 response, as connect's Connect-protocol transport reads it. */
function answerOf(req: AnyUnaryRequest, status: number, nodeHeaders: IncomingHttpHeaders, bytes: Uint8Array): AnyUnaryResponse {
  const all = webHeaders(nodeHeaders);
  const { isUnaryError, unaryError } = validateResponseWithCompression('unary', [], true, status, all);
  const [header, trailer] = trailerDemux(all);
  if (isUnaryError) throw errorFromJsonBytes(bytes, appendHeaders(header, trailer), unaryError!);
  let message: MessageShape<DescMessage>;
  try {
    message = fromBinary(req.method.output, bytes);
  } catch (e) {
    throw new ConnectError(`parse binary: ${e instanceof Error ? e.message : String(e)}`, Code.Internal);
  }
  return { stream: false, service: req.service, method: req.method, header, message, trailer };
}

/** Node's headers as fetch `Headers`, without HTTP/2's pseudo-headers (as connect-node's `nodeHeaderToWebHeader`). */
function webHeaders(nodeHeaders: IncomingHttpHeaders): Headers {
  const header = new Headers();
  for (const key in nodeHeaders) {
    if (key.charCodeAt(0) === 58 /* ':' */) continue;
    const v = nodeHeaders[key];
    if (v === undefined) continue;
    if (typeof v === 'string') header.append(key, v);
    else for (const e of v) header.append(key, e);
  }
  return header;
}

/** As connect-node's `connectErrorFromNodeReason`: a refused or unreachable peer is Unavailable, a reset one Aborted. */
function fromNodeReason(reason: unknown): ConnectError {
  if (reason instanceof ConnectError) return reason;
  const codes: string[] = [];
  for (let e: unknown = reason, depth = 0; e instanceof Error && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const c = (e as { code?: unknown }).code;
    if (typeof c === 'string') codes.push(c);
  }
  let code = Code.Internal;
  if (codes.includes('ERR_STREAM_WRITE_AFTER_END')) code = Code.Aborted;
  else if (codes.some((c) => c === 'ERR_STREAM_DESTROYED' || c === 'ERR_HTTP2_INVALID_STREAM' || c === 'ECONNRESET')) code = Code.Aborted;
  else if (codes.some((c) => c === 'ETIMEDOUT' || c === 'ENOTFOUND' || c === 'EAI_AGAIN' || c === 'ECONNREFUSED')) code = Code.Unavailable;
  const ce = ConnectError.from(reason, code);
  if (ce !== reason) ce.cause = reason;
  return ce;
}

/** As connect-node's `connectErrorFromH2ResetCode`: the RST_STREAM codes that say why a stream ended early (STREAM_CLOSED and NO_ERROR say nothing). */
const RESET_CODES = new Map<number, [name: string, code: Code]>([
  ...['PROTOCOL_ERROR', 'INTERNAL_ERROR', 'FLOW_CONTROL_ERROR', 'SETTINGS_TIMEOUT', 'FRAME_SIZE_ERROR', 'COMPRESSION_ERROR', 'CONNECT_ERROR'].map((n): [number, [string, Code]] => [(h2 as unknown as Record<string, number>)[`NGHTTP2_${n}`]!, [n, Code.Internal]]),
  [h2.NGHTTP2_REFUSED_STREAM, ['REFUSED_STREAM', Code.Unavailable]],
  [h2.NGHTTP2_CANCEL, ['CANCEL', Code.Canceled]],
  [h2.NGHTTP2_ENHANCE_YOUR_CALM, ['ENHANCE_YOUR_CALM', Code.ResourceExhausted]],
  [h2.NGHTTP2_INADEQUATE_SECURITY, ['INADEQUATE_SECURITY', Code.PermissionDenied]],
  [h2.NGHTTP2_HTTP_1_1_REQUIRED, ['HTTP_1_1_REQUIRED', Code.PermissionDenied]],
]);

function fromResetCode(rstCode: number | undefined): ConnectError | undefined {
  const known = rstCode === undefined ? undefined : RESET_CODES.get(rstCode);
  return known && new ConnectError(`http/2 stream closed with error code ${known[0]} (0x${rstCode!.toString(16)})`, known[1]);
}

/**
 * The server's side of the same calls: a request handler for an HTTP/2 server that serves a unary call
 * in the Connect protocol (POST, `application/proto`, uncompressed) itself
 * and returns true, or returns false for the server's Connect handler to serve (streams, JSON, GET,
 * compression, a malformed deadline header, unknown paths). `serveUnary` (direct-transport.ts) runs the interceptors and
 * the implementation as Connect's handler does; connect-node's adapter spent ≈ 100 µs more per call
 * (its universal request, async iterables, header copies, and a DOMException for the abort of every
 * finished call's context).
 */
export function unaryFastPath(routes: (router: ConnectRouter) => void, interceptors: Interceptor[]): (req: Http2ServerRequest, res: Http2ServerResponse) => boolean {
  const unary = new Map<string, MethodImplSpec & { kind: 'unary' }>();
  for (const [path, spec] of collectImplementations(routes)) if (spec.kind === 'unary') unary.set(path, spec);
  return (req, res) => {
    if (req.method !== 'POST') return false;
    const spec = unary.get(req.url);
    if (spec === undefined) return false;
    const h = req.headers;
    if (h['content-type'] !== 'application/proto') return false;
    const encoding = h['content-encoding'];
    if (encoding !== undefined && encoding !== 'identity') return false;
    const deadline = h['connect-timeout-ms'];
    let timeoutMs: number | undefined;
    if (deadline !== undefined) {
      // A malformed deadline is Connect's handler's to refuse (InvalidArgument).
      const parsed = parseTimeout(typeof deadline === 'string' ? deadline : deadline.join(','), Number.MAX_SAFE_INTEGER);
      if (parsed.error) return false;
      timeoutMs = parsed.timeoutMs;
    }
    serveRequest(spec, req, res, interceptors, timeoutMs);
    return true;
  };
}

function serveRequest(spec: MethodImplSpec & { kind: 'unary' }, req: Http2ServerRequest, res: Http2ServerResponse, interceptors: Interceptor[], timeoutMs: number | undefined): void {
  // The deadline aborts the handler's signal and answers DeadlineExceeded (the caller has given up by then).
  const call = new UnaryCall(undefined, timeoutMs);
  let answered = false;
  // As connect-node's adapter: a stream the client reset (or that closed) before the answer cancels the call.
  req.once('close', () => {
    if (!answered) call.cancel(fromResetCode(req.stream.rstCode) ?? new ConnectError('the client closed the stream', Code.Canceled));
  });
  // Node's compatibility layer does not forward stream errors to the request; a listener all the same, so none is unhandled.
  req.on('error', (err: Error) => {
    if (!answered) call.cancel(fromNodeReason(err));
  });
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
  });
  req.once('end', () => {
    // A request whose client went away mid-body still ends here (after 'aborted' and 'close', with what arrived): its
    // bytes may even decode; it is never run.
    if (req.aborted || call.ended) return;
    const header = webHeaders(req.headers);
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
    void serveUnary(spec, call, header, `http://${req.authority}${req.url}`, body, interceptors).then((answer) => {
      answered = true;
      if (res.stream.destroyed || res.stream.closed) return;
      const out: OutgoingHttpHeaders = {};
      answer.header.forEach((value, key) => {
        out[key] = value;
      });
      out['content-length'] = answer.body.byteLength;
      res.writeHead(answer.status, out);
      res.end(answer.body);
    }, () => {
      // serveUnary answers every error of the call itself; this is its own failure (e.g. an unencodable error).
      answered = true;
      if (!res.stream.destroyed) res.stream.close(h2.NGHTTP2_INTERNAL_ERROR);
    });
  });
}
