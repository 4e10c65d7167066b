import { ScalarType, type DescMessage } from '@bufbuild/protobuf';
import type { Interceptor } from '@connectrpc/connect';
import { Code, rpcError } from './rpc-errors';

/**
 * C0 controls, DEL and lone UTF-16 surrogates (text that is not Unicode): no text field of any
 * request may carry them (PostgreSQL cannot even store NUL).
 */
const CONTROL = /[\u0000-\u001f\u007f]|\p{Cs}/u;

/** A string field holding a control character: its snake_case name and its path (`events[3].product_reference`). */
type ControlCharacterHit = { field: string; path: string };

/** The first string field (at any depth) holding a control character, or undefined. */
function fieldWithControlCharacter(desc: DescMessage, msg: Record<string, unknown>, depth = 0): ControlCharacterHit | undefined {
  if (depth > 16) return undefined;
  const here = (field: string): ControlCharacterHit => ({ field, path: field });
  const below = (prefix: string, hit: ControlCharacterHit): ControlCharacterHit => ({ field: hit.field, path: `${prefix}.${hit.path}` });
  for (const f of desc.fields) {
    const holder = f.oneof ? (msg[f.oneof.localName] as { case?: string; value?: unknown } | undefined) : undefined;
    const value = f.oneof ? (holder?.case === f.localName ? holder.value : undefined) : msg[f.localName];
    if (value === undefined || value === null) continue;
    if (f.fieldKind === 'scalar' && f.scalar === ScalarType.STRING && CONTROL.test(value as string)) return here(f.name);
    if (f.fieldKind === 'list' && f.listKind === 'scalar' && f.scalar === ScalarType.STRING) {
      const i = (value as string[]).findIndex((v) => CONTROL.test(v));
      if (i >= 0) return { field: f.name, path: `${f.name}[${i}]` };
    }
    if (f.fieldKind === 'list' && f.listKind === 'message') {
      const items = value as Record<string, unknown>[];
      for (let i = 0; i < items.length; i++) {
        const hit = fieldWithControlCharacter(f.message, items[i]!, depth + 1);
        if (hit) return below(`${f.name}[${i}]`, hit);
      }
    }
    if (f.fieldKind === 'message') {
      const hit = fieldWithControlCharacter(f.message, value as Record<string, unknown>, depth + 1);
      if (hit) return below(f.name, hit);
    }
    if (f.fieldKind === 'map') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (CONTROL.test(k)) return here(f.name);
        if (f.mapKind === 'scalar' && f.scalar === ScalarType.STRING && CONTROL.test(v as string)) return here(f.name);
        if (f.mapKind === 'message') {
          const hit = fieldWithControlCharacter(f.message, v as Record<string, unknown>, depth + 1);
          if (hit) return below(f.name, hit);
        }
      }
    }
  }
  return undefined;
}

/** ErrorInfo metadata key of the offending field's path, so a batch caller can name the item. */
export const FIELD_PATH_METADATA = 'field_path';

function check(desc: DescMessage, msg: unknown): void {
  const hit = fieldWithControlCharacter(desc, msg as Record<string, unknown>);
  if (hit) throw rpcError(Code.InvalidArgument, `invalid_${hit.field}`, `${hit.path} must not contain control characters.`, { [FIELD_PATH_METADATA]: hit.path });
}

/** `{ index, field }` when an input-guard refusal names item `index` of the repeated field `list`. */
export function guardedItem(path: string | undefined, list: string): { index: number; field: string } | undefined {
  const m = path === undefined ? null : new RegExp(`^${list}\\[(\\d+)\\]\\.([a-z0-9_]+)`).exec(path);
  return m ? { index: Number(m[1]), field: m[2]! } : undefined;
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
