import { expect } from 'vitest';
import { equals, toJson, type DescMessage, type JsonValue, type MessageShape } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { ErrorInfoSchema } from '@vat/gen/google/rpc/error_details_pb';

/** What a caller can observe of a failed call, in a comparable form. */
export type Failure = { code: string; rawMessage: string; reason?: string; metadata?: Record<string, string> };

/** What a caller observed: a message (kept for `equals`), a streamed text, or a failure. */
export type Answer =
  | { kind: 'message'; schema: DescMessage; message: MessageShape<DescMessage>; json: JsonValue }
  | { kind: 'text'; text: string; failure?: Failure }
  | { kind: 'failure'; failure: Failure };

function failureOf(err: unknown): Failure {
  if (!(err instanceof ConnectError)) throw err;
  const info = err.findDetails(ErrorInfoSchema)[0];
  return { code: Code[err.code], rawMessage: err.rawMessage, ...(info ? { reason: info.reason, metadata: info.metadata } : {}) };
}

/** The answer to a unary call. */
export async function unary<S extends DescMessage>(schema: S, call: Promise<MessageShape<S>>): Promise<Answer> {
  try {
    const message = await call;
    return { kind: 'message', schema, message, json: toJson(schema, message) };
  } catch (err) {
    return { kind: 'failure', failure: failureOf(err) };
  }
}

/** The text a stream of chunks adds up to, and the failure that ended it, if any. */
export async function streamed<T>(chunks: AsyncIterable<T>, text: (chunk: T) => string): Promise<Answer> {
  let out = '';
  try {
    for await (const chunk of chunks) out += text(chunk);
    return { kind: 'text', text: out };
  } catch (err) {
    return { kind: 'text', text: out, failure: failureOf(err) };
  }
}

/** An answer without its message object, for `toEqual` (messages are compared with `equals`). */
function comparable(a: Answer) {
  return a.kind === 'message' ? { kind: a.kind, json: a.json } : a;
}

/** Every transport gave the same answer; messages also field by field with `equals`. */
export function expectSame(answers: Record<string, Answer>): Answer {
  const [[firstKind, first], ...rest] = Object.entries(answers) as [[string, Answer], ...[string, Answer][]];
  for (const [kind, answer] of rest) {
    expect(comparable(answer), `${kind} vs ${firstKind}`).toEqual(comparable(first));
    if (first.kind === 'message' && answer.kind === 'message') expect(equals(first.schema, first.message, answer.message), `${kind} equals ${firstKind}`).toBe(true);
  }
  return first;
}
