import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import cookie from '@fastify/cookie';
import type { Logger } from 'pino';
import type { Clients } from '@vat/platform/clients';
import { countHttpRequests, serveMetrics } from '@vat/platform/http-telemetry';
import { principalHeaders } from '@vat/platform/principal';
import { tracingEnabled } from '@vat/platform/tracing';
import { Authenticator } from './auth';
import { callOptions } from './call-options';
import { loadDashboardAssets, type Asset } from './dashboard-assets';
import { answerClientError, answerUnservedRequests } from './edge/before-fastify';
import { useJsonBodyParser } from './edge/body-parsing';
import { onEveryRequest, requestLogView } from './edge/on-request';
import { checkParameters, refuseBody } from './edge/pre-validation';
import { wireValidatorCompiler } from './edge/validation';
import { validationToHttpError } from './edge/validation-errors';
import { frameworkErrorToHttp, HttpError, retryAfterSeconds, toHttpError } from './errors';
import { DOCS_PREFIX, SECURITY_HEADERS } from './headers';
import { replyJson } from './json';
import type { KeyStore } from './keys';
import type { Limiter } from './limiter';
import { checkResponsesWhenObserved } from './openapi/conformance';
import { openApiDocument, takesBody } from './openapi/document';
import type { RouteDef, RouteTable } from './route';
import { healthRoutes, type ReadinessReport } from './routes/health';
import { dashboardRoutes } from './routes/dashboard';
import { allRoutes } from './routes/index';
import type { SessionStore } from './sessions';

type GatewayDeps = {
  clients: Clients;
  keys: KeyStore;
  limiter: Limiter;
  log: Logger;
  bodyLimitBytes: number;
  rateLimitPerMinute: number;
  readiness: () => Promise<ReadinessReport>;
  authCacheMs?: number;
  /** `/metrics` on the gateway port (off: not served), behind a bearer token when one is given. */
  metrics?: { serve: boolean; token?: string };
  sessions: SessionStore;
  /** The built dashboard; by default read from dashboard/dist at start. */
  dashboardAssets?: Map<string, Asset>;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    route?: RouteDef;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;
/** Longest path segment the router matches; a longer one answers 414 `uri_too_long`. */
const MAX_PARAM_LENGTH = 500;

/** The REST gateway: keys and scopes, the route table, REST <-> RPC, OpenAPI. */
export async function buildGateway(deps: GatewayDeps): Promise<FastifyInstance> {
  const log = deps.log.child({ component: 'gateway' }, { serializers: { req: requestLogView } });
  const app = Fastify({
    loggerInstance: log as unknown as FastifyBaseLogger,
    bodyLimit: deps.bodyLimitBytes,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false, verbose: true, strict: false } },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: MAX_PARAM_LENGTH },
    // Node would answer a request without Host with an empty 400; onEveryRequest answers it instead.
    http: { requireHostHeader: false },
    frameworkErrors: (err, req, reply) => {
      void reply.header('x-request-id', req.id).headers(SECURITY_HEADERS);
      sendError(reply, frameworkErrorToHttp(err, MAX_PARAM_LENGTH));
    },
    clientErrorHandler: (err, socket) => answerClientError(log, err, socket),
  });
  answerUnservedRequests(app.server);
  if (tracingEnabled()) {
    // One SERVER span per request (before any route is declared, so every route and hook is covered).
    const { fastifyTracingPlugin } = await import('@vat/platform/telemetry');
    const plugin = fastifyTracingPlugin();
    if (plugin) await app.register(plugin);
  }
  countHttpRequests(app);
  useJsonBodyParser(app);
  app.setReplySerializer(replyJson);
  // Only JSON shape is checked at the edge; the services enforce every rule the schemas document.
  app.setValidatorCompiler(wireValidatorCompiler);
  // Cookies are read only where a route needs the session (sessionTokenOf parses the header then), not in a hook of every request.
  await app.register(cookie, { hook: false });
  const auth = new Authenticator(deps.keys, deps.authCacheMs, deps.sessions);

  app.addHook('onRequest', onEveryRequest);

  app.setErrorHandler((err: FastifyError, req, reply) => {
    let http: HttpError;
    if (err.validation) {
      const schema = (req.routeOptions.schema as Record<string, unknown> | undefined)?.[err.validationContext ?? 'body'];
      http = validationToHttpError(err.validation, err.validationContext ?? 'body', schema as never);
    } else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      http = new HttpError(413, 'payload_too_large', `The request body exceeds ${deps.bodyLimitBytes} bytes.`);
    } else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      http = new HttpError(415, 'unsupported_media_type', 'Send the request body as application/json.');
    } else if (err.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
      http = new HttpError(400, 'invalid_request', 'The Content-Length header does not match the body.');
    } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 && !(err instanceof HttpError)) {
      http = new HttpError(err.statusCode, 'invalid_request', 'The request could not be processed.');
    } else {
      http = toHttpError(err);
    }
    if (http.status >= 500 && http.status !== 503) req.log.error({ err }, 'request failed');
    else if (http.status === 503) req.log.warn({ code: http.code, cause: err.message }, 'request answered 503');
    sendError(reply, http);
  });

  app.setNotFoundHandler((req, reply) => {
    void reply.status(404).send({ error: 'not_found', detail: `No route ${req.method} ${req.url.split('?')[0]}.` });
  });

  const web = { sessions: deps.sessions, auth, assets: deps.dashboardAssets ?? loadDashboardAssets() };
  const table: RouteTable = [...healthRoutes(deps.readiness), ...allRoutes(deps.clients, (integrationId, accountId) => deps.keys.integrationOwnedBy(integrationId, accountId), web)];
  // The document is built from the API route table itself; the docs UI and /openapi.json serve it as it is.
  const document = openApiDocument(table);
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX });
  checkResponsesWhenObserved(app, document);
  // The dashboard's page and asset routes: RouteDefs like the rest, but not API operations (left out of the OpenAPI document).
  table.push(...dashboardRoutes(web).map((def) => ({ ...def, schema: { ...def.schema, hide: true } })));

  for (const def of table) registerRoute(app, def, auth, deps);
  app.get('/openapi.json', { schema: { hide: true } }, async () => document);
  if (deps.metrics?.serve ?? true) serveMetrics(app, deps.metrics?.token);
  return app;
}

function registerRoute(app: FastifyInstance, def: RouteDef, auth: Authenticator, deps: GatewayDeps): void {
  const bodyTaken = takesBody(def);
  const access = def.access;
  app.route({
    method: def.method,
    url: def.url,
    config: { route: def },
    ...(def.validate === false ? { validatorCompiler: () => () => true } : {}),
    ...(def.bodyLimit ? { bodyLimit: def.bodyLimit } : {}),
    schema: {
      summary: def.summary,
      tags: def.tags,
      ...(def.access === 'public' ? {} : { security: [{ apiKey: [] }] }),
      ...def.schema,
    },
    // A public route without a limit has no per-route hook at all (each hook is a step of every request).
    ...(access !== 'public'
      ? {
          onRequest: async (req: FastifyRequest, reply: FastifyReply) => {
            reply.header('cache-control', 'no-store');
            const principal = await auth.authenticate(req, access);
            await enforceLimit(deps, def, principal.apiKeyId.toString());
            (req as { principal?: unknown }).principal = principal;
          },
        }
      : def.limiter
        ? // Public classification routes keep their dedicated limit (per client address) and fail closed.
          { onRequest: async (req: FastifyRequest) => enforceLimit(deps, def, `ip:${req.ip}`) }
        : {}),
    preValidation: (req, _reply, done) => {
      try {
        checkParameters(req, def);
        if (!bodyTaken) refuseBody(req);
      } catch (err) {
        done(err as Error);
        return;
      }
      done();
    },
    handler: async (req, reply) => {
      const principal = (req as { principal?: Parameters<typeof principalHeaders>[0] }).principal;
      const headers = principal ? principalHeaders(principal) : {};
      headers['x-request-id'] = req.id;
      return def.handler({ req, reply, principal, call: callOptions(headers, reply.raw) });
    },
  });
}

function sendError(reply: FastifyReply, http: HttpError): void {
  const retryAfter = retryAfterSeconds(http);
  if (retryAfter !== undefined) void reply.header('retry-after', String(retryAfter));
  void reply.status(http.status).send({ error: http.code, detail: http.detail, ...http.extra });
}

async function enforceLimit(deps: GatewayDeps, def: RouteDef, bucket: string): Promise<void> {
  let decision;
  try {
    decision = await deps.limiter.consume(`${def.limiter ?? 'default'}:${bucket}`, deps.rateLimitPerMinute, 60_000);
  } catch {
    if (def.limiter === 'classification') throw new HttpError(503, 'limiter_unavailable', 'The classification rate limiter is unavailable; classification endpoints fail closed.');
    return;
  }
  if (!decision.allowed) throw new HttpError(429, 'rate_limited', 'Too many requests; back off and retry.', { retry_after_seconds: decision.retryAfterSeconds });
}
