import { isUuid } from '@vat/platform/http-inputs';
import { invalidArgument } from '@vat/platform/rpc-errors';

/** Cursors name the last row returned (its id), so they reveal nothing beyond the caller's own data. */
export function encodeCursor(id: string): string {
  return Buffer.from(`c:${id}`).toString('base64url');
}

export const invalidCursor = () => invalidArgument('invalid_cursor', '`cursor` must be a next_cursor value from a previous page.');

export function decodeCursor(cursor: string): string {
  const text = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  const id = text.startsWith('c:') ? text.slice(2) : '';
  if (!isUuid(id)) throw invalidCursor();
  return id;
}
