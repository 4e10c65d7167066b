import { getOption, hasOption, ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import type { Interceptor } from '@connectrpc/connect';
import { input_error } from '@vat/gen/vat/platform/v1/options_pb';
import { CONTROL_CHARACTER } from './control-characters';
import { Code, rpcError } from './rpc-errors';

/**
 * Control characters (C0, DEL and C1) and lone UTF-16 surrogates (text that is not Unicode): no text
 * field of any request may carry them (PostgreSQL cannot even store NUL).
 */
const CONTROL = new RegExp(`${CONTROL_CHARACTER.source}|\\p{Cs}`, 'u');

/**
 * A string field holding a control character: its snake_case name, its path (`events[3].product_reference`)
 * and the error reason (`invalid_<field>`, or the `input_error` option of the outermost field declaring one).
 */
export type ControlCharacterHit = { field: string; path: string; reason: string };

/** The first string field (at any depth) holding a control character, or undefined. */
export function fieldWithControlCharacter(desc: DescMessage, msg: Record<string, unknown>, depth = 0): ControlCharacterHit | undefined {
  if (depth > 16) return undefined;
  for (const f of desc.fields) {
    const holder = f.oneof ? (msg[f.oneof.localName] as { case?: string; value?: unknown } | undefined) : undefined;
    const value = f.oneof ? (holder?.case === f.localName ? holder.value : undefined) : msg[f.localName];
    if (value === undefined || value === null) continue;
    const hit = hitInField(f, value, depth);
    if (hit) return hasOption(f, input_error) ? { ...hit, reason: getOption(f, input_error) } : hit;
  }
  return undefined;
}

/** A hit in field `f` itself, at `path`. */
const here = (f: DescField, path: string = f.name): ControlCharacterHit => ({ field: f.name, path, reason: `invalid_${f.name}` });
/** A hit below `prefix` (a message field or a list item), its path prefixed. */
const below = (prefix: string, hit: ControlCharacterHit | undefined) => (hit ? { ...hit, path: `${prefix}.${hit.path}` } : undefined);
const hasControl = (v: string) => CONTROL.test(v);

// Called for every field of every request message (30,000 times for a batch of 1,000 supply events): it creates no
// closure (each one costs a `__name` call in the bundled code, 6 % of the ledger's busy time under ingestion).
function hitInField(f: DescField, value: unknown, depth: number): ControlCharacterHit | undefined {
  if (f.fieldKind === 'scalar') return f.scalar === ScalarType.STRING && CONTROL.test(value as string) ? here(f) : undefined;
  if (f.fieldKind === 'message') return below(f.name, fieldWithControlCharacter(f.message, value as Record<string, unknown>, depth + 1));
  if (f.fieldKind === 'list' && f.listKind === 'scalar') {
    const i = f.scalar === ScalarType.STRING ? (value as string[]).findIndex(hasControl) : -1;
    return i >= 0 ? here(f, `${f.name}[${i}]`) : undefined;
  }
  if (f.fieldKind === 'list' && f.listKind === 'message') {
    const items = value as Record<string, unknown>[];
    for (let i = 0; i < items.length; i++) {
      const hit = below(`${f.name}[${i}]`, fieldWithControlCharacter(f.message, items[i]!, depth + 1));
      if (hit) return hit;
    }
  }
  if (f.fieldKind === 'map') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (CONTROL.test(k)) return here(f);
      if (f.mapKind === 'scalar' && f.scalar === ScalarType.STRING && CONTROL.test(v as string)) return here(f);
      if (f.mapKind === 'message') {
        const hit = below(f.name, fieldWithControlCharacter(f.message, v as Record<string, unknown>, depth + 1));
        if (hit) return hit;
      }
    }
  }
  return undefined;
}

/** ErrorInfo metadata key of the offending field's path, so a batch caller can name the item. */
export const FIELD_PATH_METADATA = 'field_path';

function check(desc: DescMessage, msg: unknown): void {
  const hit = fieldWithControlCharacter(desc, msg as Record<string, unknown>);
  if (hit) throw rpcError(Code.InvalidArgument, hit.reason, `${hit.path} must not contain control characters.`, { [FIELD_PATH_METADATA]: hit.path });
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
