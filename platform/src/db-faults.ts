import { ConnectError, type Interceptor, type StreamResponse } from '@connectrpc/connect';
import type pg from 'pg';
import { Code, rpcError } from './rpc-errors';

/** Socket-level failures reaching the database server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * SQLSTATEs of a server that is going away or not taking connections (classes 08 and 57P are matched by
 * prefix), and of a wait that gave up (55P03: a lock or, embedded, the database session stayed held past
 * the bound).
 */
const SERVER_GONE = new Set(['53300', '55P03']);
const SERVER_GONE_CLASSES = /^(08[0-9A-Z]{3}|57P[0-9A-Z]{2})$/;
/**
 * Severities with which PostgreSQL ends the session: every connection-time refusal (55000 "not currently
 * accepting connections", 53300, 3D000 a dropped database, 28P01 a rotated password) and every
 * termination. The statement was not at fault: the same call on a new connection may work.
 */
const SESSION_ENDING = new Set(['FATAL', 'PANIC']);
/** pg and pg-pool report these without a code. */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
  /Client was closed and is not queryable/,
];

/**
 * Whether an error means the database cannot be reached right now (refused, dropped, shutting down, not
 * accepting connections, too many clients, no connection in time), rather than that the statement failed. Looks through MikroORM's wrapped
 * DriverException (it copies `code`), `cause` chains and AggregateErrors.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (depth > 5 || typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; severity?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SERVER_GONE.has(e.code) || SERVER_GONE_CLASSES.test(e.code))) return true;
  if (typeof e.severity === 'string' && SESSION_ENDING.has(e.severity)) return true;
  if (typeof e.message === 'string' && DRIVER_MESSAGES.some((m) => m.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/** The RPC error a call answers while its database is unreachable: retryable, no internals. */
function databaseUnavailable(): ConnectError {
  return rpcError(Code.Unavailable, 'service_unavailable', 'The database is temporarily unavailable; retry the request.');
}

function translate(err: unknown): unknown {
  return !(err instanceof ConnectError && err.code === Code.Unavailable) && isDatabaseUnavailable(err) ? databaseUnavailable() : err;
}

async function* translated<T>(messages: AsyncIterable<T>): AsyncIterable<T> {
  try {
    yield* messages;
  } catch (err) {
    throw translate(err);
  }
}

/**
 * Server-side interceptor: a call that fails because the database is unreachable answers
 * `Unavailable` with reason `service_unavailable` (HTTP 503 at the gateway), not `Internal`; the
 * next call after the database is back simply works. Streams are covered while they are read.
 */
export function databaseFaultInterceptor(): Interceptor {
  return (next) => async (req) => {
    try {
      const res = await next(req);
      if (!res.stream) return res;
      return { ...res, message: translated(res.message) } as StreamResponse;
    } catch (err) {
      throw translate(err);
    }
  };
}

export { releaseDeadClients } from './dead-clients';
