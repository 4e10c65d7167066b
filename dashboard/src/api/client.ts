import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';
import { parseExactJson } from '../exact-json';

/** The answers' shapes as the gateway's OpenAPI document declares them (its shared components). */
export type Schemas = components['schemas'];

/** The REST API, typed from the gateway's OpenAPI document; the session cookie authenticates every call. */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });

let csrfToken: string | undefined;

/** Kept in memory only (never in browser storage); fetched again from /v1/sessions/current on reload. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

const csrf: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD' && csrfToken) request.headers.set('x-csrf-token', csrfToken);
    return request;
  },
};
api.use(csrf);

/** An error answer of the API: its status and the spec's `{ error, detail }` body (plus any extra fields). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly body: Record<string, unknown>,
  ) {
    super(detail);
  }
}

type Outcome = { data?: unknown; error?: unknown; response: Response };

/**
 * The body of a successful answer as the shape a page reads (`T`), or an ApiError. Pages name the
 * fields they show; the generated types check every path, parameter and request body.
 */
export async function ok<T>(call: Promise<Outcome>): Promise<T> {
  let outcome: Outcome;
  try {
    outcome = await call;
  } catch {
    throw new ApiError(0, 'network_error', 'The service could not be reached. Check the connection and retry.', {});
  }
  const { data, error, response } = outcome;
  if (!response.ok) {
    const body = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
    const code = typeof body.error === 'string' ? body.error : `http_${response.status}`;
    const detail = typeof body.detail === 'string' ? body.detail : `The service answered ${response.status}.`;
    if (response.status === 401) window.dispatchEvent(new CustomEvent('session-ended'));
    throw new ApiError(response.status, code, detail, body);
  }
  return data as T;
}

/** Like `ok`, for an answer read as text (`parseAs: 'text'`): integers beyond 2^53 stay exact, as bigints. */
export async function okExact<T>(call: Promise<Outcome>): Promise<T> {
  return parseExactJson<T>(await ok<string>(call));
}
