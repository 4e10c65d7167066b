import { timingSafeEqual } from 'node:crypto';
import { Code, ConnectError, type HandlerContext } from '@connectrpc/connect';

/** Who is calling, as established by the gateway from the API key. */
export type Principal = { accountId: bigint; apiKeyId: bigint; keyKind: 'v2' | 'legacy'; scope: string };

export const PRINCIPAL_HEADERS = {
  account: 'x-vat-account-id',
  apiKey: 'x-vat-api-key-id',
  kind: 'x-vat-key-kind',
  scope: 'x-vat-scope',
  token: 'x-vat-internal-token',
} as const;

/** Headers the gateway attaches to an RPC on behalf of a principal. */
export function principalHeaders(p: Principal): Record<string, string> {
  return {
    [PRINCIPAL_HEADERS.account]: p.accountId.toString(),
    [PRINCIPAL_HEADERS.apiKey]: p.apiKeyId.toString(),
    [PRINCIPAL_HEADERS.kind]: p.keyKind,
    [PRINCIPAL_HEADERS.scope]: p.scope,
  };
}

function tokenMatches(expected: string, given: string | null): boolean {
  if (given === null) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Rejects calls that do not carry the internal token (distributed mode, when configured). */
export function checkInternalToken(ctx: HandlerContext, expected: string | undefined): void {
  if (!expected) return;
  if (!tokenMatches(expected, ctx.requestHeader.get(PRINCIPAL_HEADERS.token))) {
    throw new ConnectError('caller is not the gateway', Code.Unauthenticated);
  }
}

/** The calling principal; tenant-scoped RPCs refuse to run without one. */
export function principalOf(ctx: HandlerContext): Principal {
  const account = ctx.requestHeader.get(PRINCIPAL_HEADERS.account);
  const apiKey = ctx.requestHeader.get(PRINCIPAL_HEADERS.apiKey);
  const kind = ctx.requestHeader.get(PRINCIPAL_HEADERS.kind);
  if (!account || !apiKey || !/^\d+$/.test(account) || !/^\d+$/.test(apiKey) || (kind !== 'v2' && kind !== 'legacy')) {
    throw new ConnectError('no authenticated principal on this call', Code.Unauthenticated);
  }
  return { accountId: BigInt(account), apiKeyId: BigInt(apiKey), keyKind: kind, scope: ctx.requestHeader.get(PRINCIPAL_HEADERS.scope) ?? '' };
}
