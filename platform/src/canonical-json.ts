/**
 * Deterministic ("canonical") JSON serialisation in the style of RFC 8785 (JCS)
 * plus SHA-256 digest helpers.
 *
 * Rules (`canonicalJson`):
 * - Objects: own enumerable string keys sorted by UTF-16 code units (the default
 *   JavaScript string order, as RFC 8785 §3.2.3 requires), recursively. Properties whose
 *   value is `undefined` are omitted (as `JSON.stringify` does).
 * - Arrays: kept in order. An `undefined` element (or a hole) is rejected.
 * - No insignificant whitespace.
 * - Strings: `JSON.stringify` escaping (identical to RFC 8785 §3.2.2.2). Strings and keys
 *   containing a lone UTF-16 surrogate are rejected: they have no UTF-8 encoding, so two
 *   different inputs could otherwise hash to the same digest (I-JSON, RFC 7493).
 * - Numbers: ECMAScript `Number.prototype.toString` (RFC 8785 §3.2.2.3); `-0` becomes `0`.
 *   `NaN` and `±Infinity` are rejected.
 * - `bigint` is rejected: callers must convert it to a string (or to a safe-integer
 *   number) themselves, so the wire form is an explicit choice.
 * - Only `null`, booleans, numbers, strings, arrays and plain objects (prototype
 *   `Object.prototype` or `null`) are accepted. Functions, symbols, Dates, Maps, class
 *   instances, boxed primitives and cyclic structures throw a `TypeError`. `toJSON` is not
 *   honoured.
 *
 * All rejections throw `TypeError` whose message names the JSON path of the offending value.
 */
import { createHash } from 'node:crypto';

const LONE_SURROGATE = /\p{Cs}/u;

function fail(path: string, why: string): never {
  throw new TypeError(`canonicalJson: ${why} at ${path}`);
}

function serialiseString(s: string, path: string): string {
  if (LONE_SURROGATE.test(s)) fail(path, 'string contains a lone surrogate');
  return JSON.stringify(s);
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function serialise(value: unknown, path: string, stack: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return serialiseString(value, path);
    case 'number':
      if (!Number.isFinite(value)) fail(path, `non-finite number ${String(value)}`);
      // JSON.stringify uses Number.prototype.toString semantics and maps -0 to "0".
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      fail(path, 'bigint is not allowed (convert it to a string first)');
    case 'undefined':
      fail(path, 'undefined is not allowed');
    case 'function':
    case 'symbol':
      fail(path, `${typeof value} is not allowed`);
    case 'object':
      break;
  }
  if (value === null) return 'null';
  const obj = value as object;
  if (stack.has(obj)) fail(path, 'cyclic structure');
  stack.add(obj);
  try {
    if (Array.isArray(obj)) {
      const parts: string[] = new Array(obj.length);
      for (let i = 0; i < obj.length; i++) {
        const itemPath = `${path}[${i}]`;
        if (!(i in obj)) fail(itemPath, 'array hole is not allowed');
        parts[i] = serialise(obj[i], itemPath, stack);
      }
      return `[${parts.join(',')}]`;
    }
    const proto: unknown = Object.getPrototypeOf(obj);
    if (proto !== Object.prototype && proto !== null) {
      const name = (obj as { constructor?: { name?: unknown } }).constructor?.name;
      fail(path, `non-plain object${typeof name === 'string' ? ` (${name})` : ''} is not allowed`);
    }
    const record = obj as Record<string, unknown>;
    const keys = Object.keys(record).sort(compareCodeUnits);
    const parts: string[] = [];
    for (const key of keys) {
      const v = record[key];
      if (v === undefined) continue;
      const keyPath = `${path}[${JSON.stringify(key)}]`;
      parts.push(`${serialiseString(key, keyPath)}:${serialise(v, keyPath, stack)}`);
    }
    return `{${parts.join(',')}}`;
  } finally {
    stack.delete(obj);
  }
}

/** Canonical (RFC 8785 style) JSON text of `value`. Throws `TypeError` on unsupported input. */
export function canonicalJson(value: unknown): string {
  return serialise(value, '$', new Set());
}

/** Lower-case hex SHA-256 of the UTF-8 encoding of `text`. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** `'sha256:' + sha256Hex(canonicalJson(value))`. */
export function digestOf(value: unknown): string {
  return `sha256:${sha256Hex(canonicalJson(value))}`;
}
