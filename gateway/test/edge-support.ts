import { connect } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import pino from 'pino';
import { expect } from 'vitest';
import type { Clients } from '@vat/platform/clients';
import { loadConfig } from '@vat/platform/config';
import { build, type Built } from '@vat/deploy/build';
import type { RouteDef } from '../src/route';
import { healthRoutes } from '../src/routes/health';
import { allRoutes } from '../src/routes/index';
import { freshDatabase } from '../../test/support/env';

export type Answer = { statusCode: number; headers: Record<string, string>; body: string };

/** Builds the route table whatever collaborators it takes; only the rows are read, no handler is called. */
const tableOf = allRoutes as (clients: Clients, ...collaborators: unknown[]) => RouteDef[];
/** Every route of the table, as registered. */
export const TABLE: RouteDef[] = [...healthRoutes(async () => ({ ready: true, checks: [] })), ...tableOf({} as Clients, async () => false)];
const SAMPLE: Record<string, string> = { id: '1', scheme: 'cn', code: '01012100' };
type Props = { properties?: Record<string, { 'x-error'?: string; 'x-error-missing'?: string; 'x-error-null'?: string }> };
/** The declared properties of a route's query, path or body schema. */
export const propsOf = (schema: unknown) => (schema as Props | undefined)?.properties ?? {};
/** A route's URL with its path parameters filled in (sample values unless given). */
export const urlOf = (def: RouteDef, params: Record<string, string> = {}) => def.url.replace(/:([a-z_]+)/g, (_m, name: string) => params[name] ?? SAMPLE[name] ?? 'x');

/** Stops a handler at its first RPC: by then it has read the parameters it maps into the request. */
const STOP = new Error('stop at the RPC');
/** Anything asked of it answers itself (a reply's status/header/send chain, path parameters read by name). */
const anything = (value: (name: string) => unknown): object => new Proxy({}, { get: (_t, k) => (typeof k === 'string' ? value(k) : undefined) });
const refuse = () => {
  throw STOP;
};
/** The route table with clients that refuse every call (no service needed) and every integration owned. */
export const STUBBED_TABLE: RouteDef[] = tableOf(anything(() => anything(() => refuse)) as Clients, async () => true);

/** The query parameters a route's handler reads when every declared one is sent (it runs up to its first RPC). */
export async function queryReadBy(def: RouteDef): Promise<Set<string>> {
  const read = new Set<string>();
  const query = new Proxy(Object.fromEntries(Object.keys(propsOf(def.schema?.querystring)).map((n) => [n, '1'])), {
    get: (target, k) => {
      if (typeof k === 'string') read.add(k);
      return Reflect.get(target, k);
    },
  });
  const reply: object = new Proxy({}, { get: () => () => reply });
  const req = { query, params: anything(() => '1'), body: {}, headers: {} };
  await def.handler({ req, reply, principal: { accountId: 1n, apiKeyId: 1n, keyKind: 'v2', scope: 'full' }, call: { headers: {} } } as never).catch(() => undefined);
  return read;
}

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
/** The README and every page of docs/ (the documentation moved there; the README links to it). */
const DOCS = [read('README.md'), ...readdirSync(new URL('../../docs/', import.meta.url)).filter((f) => f.endsWith('.md')).map((f) => read(`docs/${f}`))].join('\n');
const HTTP_API = read('docs/http-api.md');
const codesIn = (text: string) => new Set([...text.matchAll(/`([a-z][a-z0-9_]*)`/g)].map((m) => m[1]!));

/** The error codes the section "Authentication and errors" of docs/http-api.md lists, in backticks. */
export function edgeSectionCodes(): Set<string> {
  const start = HTTP_API.indexOf('## Authentication and errors');
  const end = HTTP_API.indexOf('\n## ', start + 5);
  return codesIn(HTTP_API.slice(start, end === -1 ? undefined : end));
}

/** Every documented error code: named in the README or docs/, or by a route schema (`x-error*`, shown in the OpenAPI document). */
export function documentedCodes(): Set<string> {
  const codes = codesIn(DOCS);
  for (const def of TABLE) {
    for (const part of [def.schema?.querystring, def.schema?.params, def.schema?.body, def.schema?.headers]) {
      for (const p of Object.values(propsOf(part))) for (const c of [p['x-error'], p['x-error-missing'], p['x-error-null']]) if (c) codes.add(c);
    }
  }
  return codes;
}

export type EdgeServer = { built: Built; port: number; key: string; logLines: string[]; close(): Promise<void> };

/** The whole service in one process (like `npm start`) on a fresh database, listening on a free port, logging into `logLines`. */
export async function startEdgeServer(env: Record<string, string> = {}): Promise<EdgeServer> {
  const db = await freshDatabase();
  const logLines: string[] = [];
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', OUTBOX_POLL_MS: '50', DATABASE_URL: db.url, ...env });
  const sink = new Writable({ write: (chunk, _enc, cb) => (logLines.push(String(chunk)), cb()) });
  const built = await build('all', config, pino({ level: 'info' }, sink));
  const port = Number(new URL(await built.listen()).port);
  const key = (await built.gateway!.keys.create('edge-acct', 'full', false)).key;
  return {
    built,
    port,
    key,
    logLines,
    async close() {
      await built.stop();
      await db.drop();
    },
  };
}

/** Every error answer is exactly `{ error, detail }` (plus documented extras) as JSON, with nosniff. */
export function expectErrorBody(res: Answer | { statusCode: number; body: string; headers: Record<string, unknown> }, status?: number, code?: string): { error: string; detail: string } {
  if (status !== undefined) expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type']), res.body).toMatch(/^application\/json/);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(body.error, res.body).toMatch(/^[a-z][a-z0-9_]*$/);
  expect(typeof body.detail, res.body).toBe('string');
  const extras = Object.keys(body).filter((k) => k !== 'error' && k !== 'detail');
  if (body.error === 'rate_limited') expect(extras).toEqual(['retry_after_seconds']);
  else if (res.statusCode !== 422) expect(extras, res.body).toEqual([]);
  if (code !== undefined) expect(body.error, res.body).toBe(code);
  return body as { error: string; detail: string };
}

/** Parses the first HTTP/1.1 response in `buf`, or undefined while it is incomplete. */
function parseAnswer(buf: Buffer, head: boolean, closed: boolean): Answer | undefined {
  const end = buf.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
  const statusCode = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  const rest = buf.subarray(end + 4);
  if (statusCode >= 100 && statusCode < 200) return parseAnswer(rest, head, closed);
  if (head || statusCode === 204 || statusCode === 304) return { statusCode, headers, body: '' };
  if (headers['content-length'] !== undefined) {
    const n = Number(headers['content-length']);
    return rest.length >= n ? { statusCode, headers, body: rest.subarray(0, n).toString('utf8') } : undefined;
  }
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    let body = '';
    let at = 0;
    for (;;) {
      const lineEnd = rest.indexOf('\r\n', at);
      if (lineEnd === -1) return undefined;
      const size = parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
      if (size === 0) return { statusCode, headers, body };
      if (rest.length < lineEnd + 2 + size + 2) return undefined;
      body += rest.subarray(lineEnd + 2, lineEnd + 2 + size).toString('utf8');
      at = lineEnd + 2 + size + 2;
    }
  }
  return closed ? { statusCode, headers, body: rest.toString('utf8') } : undefined;
}

/**
 * Writes raw bytes to a listening server and reads the first answer. Rejects when the socket closes
 * (or `timeoutMs` passes) without a complete answer: the server must always say something.
 */
export function rawRequest(port: number, bytes: string | Buffer, opts: { head?: boolean; timeoutMs?: number } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    let done = false;
    const finish = (err: Error | undefined, answer?: Answer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(answer!);
    };
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.write(bytes));
    const timer = setTimeout(() => finish(new Error(`no complete answer within ${opts.timeoutMs ?? 5000} ms: ${JSON.stringify(buf.toString('latin1').slice(0, 300))}`)), opts.timeoutMs ?? 5000);
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const answer = parseAnswer(buf, opts.head ?? false, false);
      if (answer) finish(undefined, answer);
    });
    // The server may reset after answering (it does after a parse error); what arrived still counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const answer = parseAnswer(buf, opts.head ?? false, true);
      finish(answer ? undefined : new Error(`socket closed without an answer (${buf.length} bytes received)`), answer);
    });
  });
}
