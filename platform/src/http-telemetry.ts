import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { httpCalls, scrape, statusClass } from './metrics';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Counts every answered request by route template (`/v1/transactions/:id`, never the path itself;
 * `unmatched` for a path no route serves), method and status class, with its duration.
 */
export function countHttpRequests(app: FastifyInstance): void {
  // A callback hook, not an async one: no promise per request for two counter updates.
  app.addHook('onResponse', (req, reply, done) => {
    httpCalls.record(req.routeOptions.url ?? 'unmatched', METHODS.has(req.method) ? req.method : 'other', statusClass(reply.statusCode), reply.elapsedTime / 1000);
    done();
  });
}

function bearerMatches(token: string, header: string | undefined): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * `GET /metrics` in the Prometheus text format. With `token`, only `Authorization: Bearer <token>`
 * is answered (401 otherwise): for a port the public reaches.
 */
export function serveMetrics(app: FastifyInstance, token?: string): void {
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (token && !bearerMatches(token, req.headers.authorization)) {
      return reply.status(401).header('www-authenticate', 'Bearer').send({ error: 'unauthorized', detail: 'The metrics endpoint needs the configured bearer token.' });
    }
    const { contentType, body } = await scrape();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}
