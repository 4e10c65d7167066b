import { timingSafeEqual } from 'node:crypto';
import { Code, ConnectError, createContextKey, type HandlerContext, type Interceptor } from '@connectrpc/connect';

/** Who is calling, as established by the gateway from the API key. */
export type Principal = { accountId: bigint; apiKeyId: bigint; keyKind: 'v2' | 'legacy'; scope: string };

export const PRINCIPAL_HEADERS = {
  account: 'x-vat-account-id',
  apiKey: 'x-vat-api-key-id',
  kind: 'x-vat-key-kind',
  scope: 'x-vat-scope',
  token: 'x-vat-internal-token',
} as const;

/** The caller's principal in the Connect context; set once per call by `principalInterceptor`. */
const PRINCIPAL = createContextKey<Principal | undefined>(undefined, { description: 'authenticated principal' });

/** Headers the gateway attaches to an RPC on behalf of a principal. */
export function principalHeaders(p: Principal): Record<string, string> {
  return {
    [PRINCIPAL_HEADERS.account]: p.accountId.toString(),
    [PRINCIPAL_HEADERS.apiKey]: p.apiKeyId.toString(),
    [PRINCIPAL_HEADERS.kind]: p.keyKind,
    [PRINCIPAL_HEADERS.scope]: p.scope,
  };
}

/** Constant-time comparison of the shared internal token. */
function tokenMatches(expected: string, given: string | null): boolean {
  if (given === null) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function parsePrincipal(header: Headers): Principal | undefined {
  const account = header.get(PRINCIPAL_HEADERS.account);
  const apiKey = header.get(PRINCIPAL_HEADERS.apiKey);
  const kind = header.get(PRINCIPAL_HEADERS.kind);
  if (account === null && apiKey === null && kind === null) return undefined;
  if (!account || !apiKey || !/^\d{1,19}$/.test(account) || !/^\d{1,19}$/.test(apiKey) || (kind !== 'v2' && kind !== 'legacy')) {
    throw new ConnectError('malformed principal on this call', Code.Unauthenticated);
  }
  return { accountId: BigInt(account), apiKeyId: BigInt(apiKey), keyKind: kind, scope: header.get(PRINCIPAL_HEADERS.scope) ?? '' };
}

/**
 * Server-side interceptor every service runs first: checks the internal token (when configured,
 * in constant time) and puts the caller's principal into the context, once per call.
 */
export function principalInterceptor(internalToken: string | undefined): Interceptor {
  return (next) => async (req) => {
    if (internalToken && !tokenMatches(internalToken, req.header.get(PRINCIPAL_HEADERS.token))) {
      throw new ConnectError('caller is not the gateway', Code.Unauthenticated);
    }
    const principal = parsePrincipal(req.header);
    if (principal) req.contextValues.set(PRINCIPAL, principal);
    return next(req);
  };
}

/** The calling principal; tenant-scoped RPCs refuse to run without one. */
export function callerOf(ctx: HandlerContext): Principal {
  const p = ctx.values.get(PRINCIPAL);
  if (!p) throw new ConnectError('no authenticated principal on this call', Code.Unauthenticated);
  return p;
}
