import { ScalarType, type DescMessage } from '@bufbuild/protobuf';
import type { Interceptor } from '@connectrpc/connect';
import { invalidArgument } from './rpc-errors';

/**
 * C0 controls, DEL and lone UTF-16 surrogates (text that is not Unicode): no text field of any
 * request may carry them (PostgreSQL cannot even store NUL).
 */
const CONTROL = /[\u0000-\u001f\u007f]|\p{Cs}/u;

/** The snake_case name of the first string field (at any depth) holding a control character. */
export function fieldWithControlCharacter(desc: DescMessage, msg: Record<string, unknown>, depth = 0): string | undefined {
  if (depth > 16) return undefined;
  for (const f of desc.fields) {
    const holder = f.oneof ? (msg[f.oneof.localName] as { case?: string; value?: unknown } | undefined) : undefined;
    const value = f.oneof ? (holder?.case === f.localName ? holder.value : undefined) : msg[f.localName];
    if (value === undefined || value === null) continue;
    if (f.fieldKind === 'scalar' && f.scalar === ScalarType.STRING && CONTROL.test(value as string)) return f.name;
    if (f.fieldKind === 'list' && f.listKind === 'scalar' && f.scalar === ScalarType.STRING && (value as string[]).some((v) => CONTROL.test(v))) return f.name;
    if (f.fieldKind === 'list' && f.listKind === 'message') {
      for (const item of value as Record<string, unknown>[]) {
        const hit = fieldWithControlCharacter(f.message, item, depth + 1);
        if (hit) return hit;
      }
    }
    if (f.fieldKind === 'message') {
      const hit = fieldWithControlCharacter(f.message, value as Record<string, unknown>, depth + 1);
      if (hit) return hit;
    }
    if (f.fieldKind === 'map') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (CONTROL.test(k)) return f.name;
        if (f.mapKind === 'scalar' && f.scalar === ScalarType.STRING && CONTROL.test(v as string)) return f.name;
        if (f.mapKind === 'message') {
          const hit = fieldWithControlCharacter(f.message, v as Record<string, unknown>, depth + 1);
          if (hit) return hit;
        }
      }
    }
  }
  return undefined;
}

function check(desc: DescMessage, msg: unknown): void {
  const field = fieldWithControlCharacter(desc, msg as Record<string, unknown>);
  if (field) throw invalidArgument(`invalid_${field}`, `${field} must not contain control characters.`);
}

/**
 * Every service refuses control characters in request strings before any handler runs, as the
 * spec's `invalid_<field>` 400, whatever the caller (gateway, another service, a test).
 */
export function inputGuardInterceptor(): Interceptor {
  return (next) => async (req) => {
    if (!req.stream) {
      check(req.method.input, req.message);
      return next(req);
    }
    const messages = req.message;
    const desc = req.method.input;
    async function* guarded() {
      for await (const m of messages) {
        check(desc, m);
        yield m;
      }
    }
    return next({ ...req, message: guarded() });
  };
}
