import { Code, ConnectError } from '@connectrpc/connect';
import { SupplyEventRejectionsSchema } from '@vat/gen/vat/ledger/v1/resources_pb';
import { CONTROL_CHARACTER } from '@vat/platform/control-characters';
import { FIELD_PATH_METADATA } from '@vat/platform/input-guard';
import { metadataOf, reasonOf } from '@vat/platform/rpc-errors';
import { isDatabaseUnavailable } from '@vat/platform/db-faults';

/** An error that is already an HTTP answer: status plus the spec's `{ error, detail }` body. */
export class HttpError extends Error {
  constructor(readonly status: number, readonly code: string, readonly detail: string, readonly extra: Record<string, unknown> = {}) {
    // A 4xx is an answer to the caller, not a fault: no stack trace is captured for it (capturing one
    // was a fifth of the gateway's CPU when answering a stream of 401s). A 5xx keeps its stack for the log.
    const limit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(detail);
    Error.stackTraceLimit = limit;
  }
}

/** Connect code -> HTTP status, as in connect-es protocol-connect/http-status.ts. */
const STATUS_BY_CODE: Record<Code, number> = {
  [Code.Canceled]: 499,
  [Code.Unknown]: 500,
  [Code.InvalidArgument]: 400,
  [Code.DeadlineExceeded]: 504,
  [Code.NotFound]: 404,
  [Code.AlreadyExists]: 409,
  [Code.PermissionDenied]: 403,
  [Code.ResourceExhausted]: 429,
  [Code.FailedPrecondition]: 422,
  [Code.Aborted]: 409,
  [Code.OutOfRange]: 400,
  [Code.Unimplemented]: 501,
  [Code.Internal]: 500,
  [Code.Unavailable]: 503,
  [Code.DataLoss]: 500,
  [Code.Unauthenticated]: 401,
};

// Note: FailedPrecondition maps to 422 here (connect-es says 400): the spec answers business-rule
// refusals (conditional rate, currency mismatch, incomplete evidence) with 422.

const DEFAULT_CODE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  422: 'unprocessable',
  429: 'rate_limited',
  499: 'canceled',
  501: 'not_implemented',
  503: 'unavailable',
  504: 'timeout',
};

/** Translates an RPC failure into an HTTP answer. Server-side faults never expose their message. */
export function httpErrorFromConnect(err: ConnectError): HttpError {
  const status = STATUS_BY_CODE[err.code] ?? 500;
  if (status >= 500 && status !== 503 && status !== 501) return new HttpError(500, 'internal_error', 'The server failed to process the request.');
  const code = reasonOf(err) ?? DEFAULT_CODE_BY_STATUS[status] ?? 'internal_error';
  if (status === 503) return new HttpError(503, code === 'unavailable' ? 'service_unavailable' : code, 'A backing service is temporarily unavailable; retry with the same request.');
  // The input guard's field path only routes a batch refusal to its item (supply events); not a body field.
  const { [FIELD_PATH_METADATA]: _path, ...metadata } = metadataOf(err);
  return new HttpError(status, code, err.rawMessage, { ...metadata, ...itemErrorsOf(err) });
}

/** Per-item refusals of a batch (supply events) as the documented `errors` list of the body. */
function itemErrorsOf(err: ConnectError): Record<string, unknown> {
  const items = err.findDetails(SupplyEventRejectionsSchema)[0]?.items;
  if (!items) return {};
  return { errors: items.map((i) => ({ index: i.index, event_id: i.eventId ?? null, field: i.field ?? null, error: i.error, detail: i.detail })) };
}

/**
 * Seconds a client should wait before retrying a 503: long enough for a pool to get a fresh connection
 * once PostgreSQL is back, short enough that a failover costs a client only a few retries.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/** The `Retry-After` of an answer: every 503, and a 429 with the limiter's own wait; none otherwise. */
export function retryAfterSeconds(http: HttpError): number | undefined {
  if (http.status === 503) return UNAVAILABLE_RETRY_AFTER_SECONDS;
  const wait = http.extra.retry_after_seconds;
  return http.status === 429 && typeof wait === 'number' ? wait : undefined;
}

/** Any failure as an HTTP answer; the gateway's own database being unreachable is a retryable 503. */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof ConnectError) return httpErrorFromConnect(err);
  if (isDatabaseUnavailable(err)) return new HttpError(503, 'service_unavailable', 'A backing service is temporarily unavailable; retry with the same request.');
  return new HttpError(500, 'internal_error', 'The server failed to process the request.');
}

/**
 * Fastify's answers to request targets it cannot route (its `frameworkErrors`): bad
 * percent-encoding or UTF-8 in the path, and a path segment over the router's length limit.
 */
export function frameworkErrorToHttp(err: { code?: string }, maxParamLength: number): HttpError {
  if (err.code === 'FST_ERR_BAD_URL') return new HttpError(400, 'invalid_url', 'The request path is not valid percent-encoded UTF-8.');
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return new HttpError(414, 'uri_too_long', `A path segment exceeds ${maxParamLength} characters.`);
  return toHttpError(err);
}

const CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTER.source, 'gu');

/** A client-supplied name as it may appear in a detail text: control characters (C1 too) escaped, bounded length. */
export function printable(name: string): string {
  const escaped = JSON.stringify(name).slice(1, -1).replace(CONTROL_CHARACTERS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > 60 ? `${escaped.slice(0, 60)}…` : escaped;
}
