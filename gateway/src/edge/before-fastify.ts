import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { HttpError } from '../errors';
import { SECURITY_HEADERS } from '../headers';

/**
 * Answers to what Node's HTTP parser refuses before Fastify sees a request (the `clientError` event):
 * the status Node would give, with the documented body.
 */
export function clientErrorAnswer(code: string | undefined): HttpError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HttpError(431, 'headers_too_large', 'The request line and headers exceed 16 KB; send long inputs in a JSON body.');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new HttpError(413, 'payload_too_large', 'The chunk extensions of the request body are too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpError(408, 'request_timeout', 'The request was not received in time.');
    case 'HPE_INVALID_URL':
      return new HttpError(400, 'invalid_url', 'The request target is not a valid URL.');
    default:
      return new HttpError(400, 'malformed_request', 'The request is not well-formed HTTP/1.1.');
  }
}

/** Headers and body of an answer written outside Fastify; the connection is closed after it. */
function answerParts(http: HttpError): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({ error: http.code, detail: http.detail });
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': randomUUID(),
    ...SECURITY_HEADERS,
    'cache-control': 'no-store',
    connection: 'close',
  };
  return { headers, body };
}

/** A complete HTTP/1.1 answer with the `{ error, detail }` body, closing the connection. */
function rawAnswer(http: HttpError): string {
  const { headers, body } = answerParts(http);
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  return `HTTP/1.1 ${http.status} ${STATUS_CODES[http.status]}\r\n${lines.join('')}\r\n${body}`;
}

/**
 * Fastify `clientErrorHandler`: Node's parser refused the bytes. Answers unless a response on this
 * socket has already started (as Node does). Only the error code is logged: the raw packet may hold
 * a key or a query string.
 */
export function answerClientError(log: Logger, err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  log.debug({ code: err.code }, 'client error');
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.end(rawAnswer(clientErrorAnswer(err.code)));
  else socket.destroy();
}

/**
 * Node answers these itself when nobody listens: CONNECT (it closes the socket without a word) and
 * an `Expect` other than `100-continue` (an empty 417). Both get the documented body instead.
 */
export function answerUnservedRequests(server: Server): void {
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end(rawAnswer(new HttpError(405, 'method_not_allowed', 'CONNECT is not supported; this is not a proxy.')));
  });
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const { headers, body } = answerParts(new HttpError(417, 'expectation_failed', 'Only "Expect: 100-continue" is supported.'));
    res.writeHead(417, headers).end(body);
  });
}
