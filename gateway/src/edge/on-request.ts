import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../errors';
import { DOCS_HEADERS, isDocsPath, SECURITY_HEADERS } from '../headers';
import { checkQueryString, pathOf } from './pre-validation';

/**
 * The gateway's access-log view of a request: method, path and client address. Never the query
 * string (a key sent as `?api_key=`, or personal data in a filter) and never the headers.
 */
export function requestLogView(req: { method?: string; url?: string; ip?: string }): Record<string, unknown> {
  return { method: req.method, url: pathOf(req.url ?? ''), remoteAddress: req.ip };
}

/**
 * The first hook of every request Fastify routes, found or not: headers every answer carries, then
 * the checks that do not depend on the route (one valid Host, query string well-formed and key-free).
 */
export function onEveryRequest(req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
  try {
    checkEveryRequest(req, reply);
  } catch (err) {
    done(err as Error);
    return;
  }
  done();
}

function checkEveryRequest(req: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', req.id);
  reply.headers(SECURITY_HEADERS);
  if (isDocsPath(pathOf(req.url))) reply.headers(DOCS_HEADERS);
  // A request that carries a key is answered for that key alone: no cache may keep the answer.
  if (req.headers['x-api-key'] !== undefined) reply.header('cache-control', 'no-store');
  checkHost(req, reply);
  checkQueryString(req.url);
}

/** RFC 9110 §7.2 `uri-host [ ":" port ]`: an IP literal, or a reg-name (unreserved, pct-encoded, sub-delims). */
const HOST_VALUE = /^(?:\[[0-9A-Fa-f:.]+\]|\[v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::[0-9]*)?$/;

/**
 * RFC 9112 §3.2: 400 to an HTTP/1.1 request without Host, and to any request with more than one Host
 * field line or an invalid Host value. Node keeps only the first of two Host lines, so they are counted
 * in the raw headers. Node is told not to require Host (it would answer an empty 400).
 */
function checkHost(req: FastifyRequest, reply: FastifyReply): void {
  const raw = req.raw.rawHeaders;
  const hosts: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'host') hosts.push(raw[i + 1]!);
  let detail: string | undefined;
  if (hosts.length > 1) detail = 'A request must carry exactly one Host header, not several.';
  else if (hosts.length === 1 && !HOST_VALUE.test(hosts[0]!)) detail = 'The Host header is not a valid host[:port].';
  else if (hosts.length === 0 && req.raw.httpVersion === '1.1') detail = 'An HTTP/1.1 request must carry a Host header.';
  if (detail === undefined) return;
  // Which host a proxy in front thought this was is unknown: nothing more is read from this connection.
  reply.header('connection', 'close');
  throw new HttpError(400, 'malformed_request', detail);
}
