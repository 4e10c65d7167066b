import { Code, ConnectError, type Interceptor, type StreamResponse } from '@connectrpc/connect';
import { rpcError } from './rpc-errors';

/** Node and HTTP/2 error codes of a connection to a service process that broke or never opened. */
const CONNECTION_CODES = /^(ECONNRESET|ECONNREFUSED|ECONNABORTED|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|ERR_HTTP2_.*|ERR_STREAM_.*)$/;

/** Whether `err` came from the connection rather than from the service: no details of its own, a broken socket or stream below. */
export function isPeerFault(err: unknown): boolean {
  if (!(err instanceof ConnectError) || err.details.length > 0) return false;
  if (/^http\/2 stream closed with error code /.test(err.rawMessage)) return true;
  for (let e: unknown = err.cause, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES.test(code)) return true;
  }
  return false;
}

function translate(err: unknown, signal: AbortSignal): unknown {
  // The caller's own cancellation (its client went away) stays what it is.
  if (signal.aborted || !isPeerFault(err)) return err;
  return rpcError(Code.Unavailable, 'service_unavailable', 'A backing service did not answer; retry the request.');
}

async function* translated<T>(messages: AsyncIterable<T>, signal: AbortSignal): AsyncIterable<T> {
  try {
    yield* messages;
  } catch (err) {
    throw translate(err, signal);
  }
}

/**
 * Client-side interceptor of the HTTP/2 transports to service processes: a call whose connection was
 * refused or broke (a replica killed or restarting mid-call: ECONNRESET, a reset stream) is `Unavailable`
 * `service_unavailable`, answered 503 by the gateway, never the `Aborted` (409 with "read ECONNRESET" as its
 * detail) or `Internal` that connect-node makes of it. A retry reaches a replica that is up.
 */
export function peerFaultInterceptor(): Interceptor {
  return (next) => async (req) => {
    try {
      const res = await next(req);
      if (!res.stream) return res;
      return { ...res, message: translated(res.message, req.signal) } as StreamResponse;
    } catch (err) {
      throw translate(err, req.signal);
    }
  };
}
