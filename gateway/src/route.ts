import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { Principal } from '@vat/platform/principal';
import type { Access } from './auth';

export type CallOptions = { headers: Record<string, string>; signal?: AbortSignal };

type RouteContext = {
  req: FastifyRequest;
  reply: FastifyReply;
  principal: Principal | undefined;
  /** Options for RPC calls made on behalf of this request (principal headers, cancellation). */
  call: CallOptions;
};

/** One row of the hand-written route table. */
export type RouteDef = {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  access: Access;
  /** Routes with their own distributed limit fail closed when the limiter is down. */
  limiter?: 'default' | 'classification';
  summary: string;
  tags: string[];
  schema?: Omit<FastifySchema, 'summary' | 'tags'>;
  /** false: the schema only documents the body; the handler maps it item by item (per-item errors). */
  validate?: boolean;
  /** A larger body limit than the gateway's default, for bulk routes. */
  bodyLimit?: number;
  /**
   * Success answers by status: the JSON schema of the body, or `{ mediaType: 'text/csv' }` for a file.
   * Part of the one source of truth the OpenAPI document is built from (issue 20).
   */
  responses?: Record<number, object>;
  /** The `error` codes each error status (400, 401, 403, 404, 409, 422, 429, 503, …) can carry. */
  errors?: Partial<Record<number, readonly string[]>>;
  handler: (ctx: RouteContext) => Promise<unknown>;
};

export type RouteTable = RouteDef[];
