import { Code, ConnectError } from '@connectrpc/connect';
import { metadataOf, reasonOf } from '@vat/platform/rpc-errors';

/** An error that is already an HTTP answer: status plus the spec's `{ error, detail }` body. */
export class HttpError extends Error {
  constructor(readonly status: number, readonly code: string, readonly detail: string, readonly extra: Record<string, unknown> = {}) {
    super(detail);
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
  return new HttpError(status, code, err.rawMessage, metadataOf(err));
}

export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof ConnectError) return httpErrorFromConnect(err);
  return new HttpError(500, 'internal_error', 'The server failed to process the request.');
}
