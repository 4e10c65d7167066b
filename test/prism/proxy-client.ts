/**
 * Requests sent through Stoplight Prism (`prism proxy`) and what Prism found wrong with each: the
 * `sl-violations` header of every proxied answer lists the request and response violations against
 * the OpenAPI document (Prism's own validator, not the gateway's).
 */

type Schema = Record<string, any>;
export type OpenApi = { paths: Record<string, Record<string, Schema>>; components: Schema };

/** One operation of the document. */
export type Operation = { id: string; method: string; path: string; op: Schema; match: RegExp };

/** Every operation of the document, literal paths before templated ones (`/v1/sources/unknown` before `/v1/sources/{id}`). */
export function operationsOf(doc: OpenApi): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const match = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      ops.push({ id: op.operationId as string, method: method.toUpperCase(), path, op, match });
    }
  }
  const templated = (o: Operation) => (o.path.match(/\{/g) ?? []).length;
  return ops.sort((a, b) => templated(a) - templated(b));
}

export type Violation = { location: string[]; severity: string; code?: string | number; message: string };

/** What one request drew. `kind`: a request the document allows (valid) or one it refuses (invalid). */
export type Sent = {
  operation: string;
  kind: 'valid' | 'invalid';
  label: string;
  method: string;
  url: string;
  status: number;
  /** The statuses the sender expected (a valid request: 2xx unless it names others). */
  expected: (status: number) => boolean;
  violations: Violation[];
  /** The start of the answer's body (for the report). */
  excerpt: string;
  /** Prism answered itself (problem+json: it could not forward the request), so the service was not checked. */
  byPrism: boolean;
};

export type Request = {
  kind: 'valid' | 'invalid';
  /** What the request tries (shown when it draws a violation). */
  label: string;
  method: string;
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** JSON body (sent compact: Prism re-serializes it and forwards the original Content-Length). */
  body?: unknown;
  /** A body sent as it is, with `headers['content-type']`. */
  rawBody?: string;
  expect?: number[];
};

export type Answer = { status: number; json: any; text: string; headers: Headers };

const UNDOCUMENTED = 'Unable to match the returned status code';

export const isUndocumentedStatus = (v: Violation) => v.location[0] === 'response' && v.message.startsWith(UNDOCUMENTED);
export const isResponseMismatch = (v: Violation) => v.location[0] === 'response' && !v.message.startsWith(UNDOCUMENTED);
export const isRequestViolation = (v: Violation) => v.location[0] === 'request';

function violationsOf(header: string | null): Violation[] {
  if (!header) return [];
  try {
    return JSON.parse(header) as Violation[];
  } catch {
    // Prism truncates a header of more than 8 KB ("Too many violations! …"): every one of them is a response problem to look at.
    return [{ location: ['response'], severity: 'Error', message: `unparsed violations: ${header.slice(0, 300)}` }];
  }
}

/** Sends requests through the proxy, attributes each to its operation, and keeps what Prism said. */
export class ProxyClient {
  readonly sent: Sent[] = [];
  /** Per operation, the first valid request the service answered 2xx (else the first valid one): what invalid variations start from. */
  private readonly valid = new Map<string, { request: Request; ok: boolean }>();

  constructor(
    private readonly base: string,
    private readonly ops: Operation[],
  ) {}

  operationOf(method: string, path: string): Operation | undefined {
    return this.ops.find((o) => o.method === method && o.match.test(path));
  }

  /** Makes `r` (not sent) the request the operation's invalid variations start from (a credential a valid request used up). */
  startFrom(r: Request): void {
    const op = this.operationOf(r.method, r.path);
    if (!op) throw new Error(`${r.method} ${r.path} is no operation of the document`);
    this.valid.set(op.id, { request: r, ok: true });
  }

  validRequestOf(operationId: string): Request | undefined {
    return this.valid.get(operationId)?.request;
  }

  async send(r: Request): Promise<Answer> {
    const op = this.operationOf(r.method, r.path);
    if (!op) throw new Error(`${r.method} ${r.path} is no operation of the document`);
    const qs = r.query && Object.keys(r.query).length ? `?${new URLSearchParams(r.query).toString()}` : '';
    const url = `${r.path}${qs}`;
    const headers: Record<string, string> = { ...r.headers };
    let body: string | undefined = r.rawBody;
    if (r.body !== undefined) {
      body = JSON.stringify(r.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${this.base}${url}`, { method: r.method, headers, body, signal: AbortSignal.timeout(60_000) });
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const expected = r.expect ? (s: number) => r.expect!.includes(s) : r.kind === 'valid' ? (s: number) => s >= 200 && s < 300 : (s: number) => s >= 400 && s < 500;
    this.sent.push({ operation: op.id, kind: r.kind, label: r.label, method: r.method, url, status: res.status, expected, violations: violationsOf(res.headers.get('sl-violations')), excerpt: text.slice(0, 240), byPrism: (res.headers.get('content-type') ?? '').startsWith('application/problem+json') });
    const ok = res.status >= 200 && res.status < 300;
    const known = this.valid.get(op.id);
    if (r.kind === 'valid' && (!known || (ok && !known.ok))) this.valid.set(op.id, { request: r, ok });
    return { status: res.status, json, text, headers: res.headers };
  }
}
