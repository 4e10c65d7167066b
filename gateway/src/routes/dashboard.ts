import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Asset } from '../dashboard-assets';
import { HttpError, printable } from '../errors';
import type { RouteDef } from '../route';
import type { WebDeps } from './index';
import { query, str } from './schemas';

export const DASHBOARD_PREFIX = '/app/';

/** Only this origin's own files: no inline script or style, no CDN, no frames, forms post nowhere else. */
export const DASHBOARD_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
} as const;

/** Query parameters the dashboard's pages keep in their (bookmarkable) URLs; the page itself reads them. */
const PAGE_PARAMETERS = ['period', 'month', 'year', 'reason', 'disposition', 'member_state', 'cursor', 'integration_id', 'from', 'to', 'status'];
const pageQuery = query(Object.fromEntries(PAGE_PARAMETERS.map((name) => [name, str('invalid_request', { maxLength: 200 })])));
const tags = ['dashboard'];
const PAGE_NAME = { type: 'string', maxLength: 40, description: 'lower-case words joined by -' };
const html = { mediaType: 'text/html' };

function sendAsset(req: FastifyRequest, reply: FastifyReply, asset: Asset) {
  reply.headers(DASHBOARD_HEADERS);
  reply.header('content-type', asset.mediaType);
  reply.header('etag', asset.etag);
  reply.header('vary', 'accept-encoding');
  reply.header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (req.headers['if-none-match'] === asset.etag) return reply.status(304).send();
  const accepts = String(req.headers['accept-encoding'] ?? '');
  if (/\bgzip\b/.test(accepts)) {
    reply.header('content-encoding', 'gzip');
    return reply.send(asset.gzip);
  }
  return reply.send(asset.body);
}

/** `/` and `/app/…`: the dashboard's page (every page path answers index.html; the page routes itself) and its assets. */
export function dashboardRoutes(web: Pick<WebDeps, 'assets'>): RouteDef[] {
  const built = () => {
    const assets = web.assets;
    if (!assets?.has('index.html')) throw new HttpError(503, 'dashboard_not_built', 'The dashboard was not built: run `npm install` or `npm run build:dashboard`.');
    return assets;
  };
  const redirect = (url: string, summary: string): RouteDef => ({
    method: 'GET',
    url,
    access: 'public',
    summary,
    tags,
    schema: { querystring: query({}) },
    responses: { 302: { description: `Location: ${DASHBOARD_PREFIX}` } },
    errors: { 400: ['unknown_parameter'] },
    handler: async ({ reply }) => reply.redirect(DASHBOARD_PREFIX, 302),
  });
  const page = (url: string, summary: string): RouteDef => ({
    method: 'GET',
    url,
    access: 'public',
    summary,
    tags,
    schema: { params: { type: 'object', properties: Object.fromEntries([...url.matchAll(/:([a-z]+)/g)].map((m) => [m[1]!, PAGE_NAME])) }, querystring: pageQuery },
    responses: { 200: html, 304: {} },
    errors: { 400: ['unknown_parameter', 'invalid_request'], 404: ['not_found'], 503: ['dashboard_not_built'] },
    handler: async ({ req, reply }) => {
      const names = Object.values(req.params as Record<string, string>);
      // A page name is lower-case words; anything else (a file name, a typo'd asset path) is a plain 404.
      if (!names.every((n) => /^[a-z0-9-]{1,40}$/.test(n))) throw new HttpError(404, 'not_found', 'No such dashboard page or file.');
      return sendAsset(req, reply, built().get('index.html')!);
    },
  });
  return [
    redirect('/', 'The service root: redirects to the dashboard'),
    redirect('/app', 'Redirects to the dashboard (/app/)'),
    {
      method: 'GET',
      url: DASHBOARD_PREFIX,
      access: 'public',
      summary: 'The dashboard (sign in with an API key)',
      tags,
      schema: { querystring: pageQuery },
      responses: { 200: html, 304: {} },
      errors: { 400: ['unknown_parameter', 'invalid_request'], 503: ['dashboard_not_built'] },
      handler: async ({ req, reply }) => sendAsset(req, reply, built().get('index.html')!),
    },
    {
      method: 'GET',
      url: `${DASHBOARD_PREFIX}assets/:file`,
      access: 'public',
      summary: "One of the dashboard's built files (content-hashed name, cached for a year)",
      tags,
      schema: { params: { type: 'object', properties: { file: { type: 'string', maxLength: 200 } }, required: ['file'] }, querystring: query({}) },
      responses: { 200: { mediaType: 'text/javascript, text/css' }, 304: {} },
      errors: { 400: ['unknown_parameter', 'invalid_request'], 404: ['not_found'], 503: ['dashboard_not_built'] },
      handler: async ({ req, reply }) => {
        const { file } = req.params as { file: string };
        const asset = built().get(`assets/${file}`);
        if (!asset) throw new HttpError(404, 'not_found', `No dashboard file ${DASHBOARD_PREFIX}assets/${printable(file)}.`);
        return sendAsset(req, reply, asset);
      },
    },
    page(`${DASHBOARD_PREFIX}:page`, 'A dashboard page (quarter, registrations, ioss, article-59c, corrections, product-codes, calendar, notifications): the dashboard, which shows the page'),
    page(`${DASHBOARD_PREFIX}:page/:view`, 'A dashboard page below another (quarter/events): the dashboard, which shows the page'),
  ];
}
