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
 * the checks that do not depend on the route (Host present, query string well-formed and key-free).
 */
export async function onEveryRequest(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('x-request-id', req.id);
  reply.headers(SECURITY_HEADERS);
  if (isDocsPath(pathOf(req.url))) reply.headers(DOCS_HEADERS);
  // A request that carries a key is answered for that key alone: no cache may keep the answer.
  if (req.headers['x-api-key'] !== undefined) reply.header('cache-control', 'no-store');
  // Node is told not to require Host (it would answer an empty 400); HTTP/1.1 still requires it.
  if (req.raw.httpVersion === '1.1' && req.headers.host === undefined) throw new HttpError(400, 'malformed_request', 'An HTTP/1.1 request must carry a Host header.');
  checkQueryString(req.url);
}
