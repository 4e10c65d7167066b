import { expect } from 'vitest';
import { ConnectError } from '@connectrpc/connect';
import { ErrorInfoSchema } from '@vat/gen/google/rpc/error_details_pb';

/** What a caller can observe of a failed call (the transport tests compare these across transports). */
export async function failureOf(call: Promise<unknown>) {
  const err = await call.then(
    () => expect.fail('the call succeeded'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConnectError);
  const e = err as ConnectError;
  return { code: e.code, rawMessage: e.rawMessage, details: e.details, info: e.findDetails(ErrorInfoSchema), retry: e.metadata.get('x-retry'), wire: e.isWireError, cause: e.cause };
}
