import { Code, ConnectError } from '@connectrpc/connect';
import { ErrorInfoSchema } from '@vat/gen/google/rpc/error_details_pb';

export { Code, ConnectError };

/** A ConnectError whose ErrorInfo.reason is the spec's error code. */
export function rpcError(code: Code, reason: string, detail: string, metadata: Record<string, string> = {}): ConnectError {
  return new ConnectError(detail, code, undefined, [{ desc: ErrorInfoSchema, value: { reason, domain: 'vat', metadata } }]);
}

export const invalidArgument = (reason: string, detail: string) => rpcError(Code.InvalidArgument, reason, detail);
export const notFound = (reason: string, detail: string) => rpcError(Code.NotFound, reason, detail);
export const failedPrecondition = (reason: string, detail: string) => rpcError(Code.FailedPrecondition, reason, detail);
export const aborted = (reason: string, detail: string) => rpcError(Code.Aborted, reason, detail);

/** The spec error code carried by a ConnectError, if any. */
export function reasonOf(err: ConnectError): string | undefined {
  return err.findDetails(ErrorInfoSchema)[0]?.reason;
}

export function metadataOf(err: ConnectError): Record<string, string> {
  return err.findDetails(ErrorInfoSchema)[0]?.metadata ?? {};
}
