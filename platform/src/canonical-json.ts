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

/** Thrown by a {@link serialise} that tracks no path: the caller serialises again with paths for the message. */
const RETRY_WITH_PATHS = Symbol('canonicalJson: retry with paths');

/** A `TypeError` naming `path`, or, when no path is tracked (`null`), the signal to serialise again with paths. */
function fail(path: string | null, why: string): never {
  if (path === null) throw RETRY_WITH_PATHS;
  throw new TypeError(`canonicalJson: ${why} at ${path}`);
}

/** Printable ASCII other than `"` and `\\`: `JSON.stringify` only adds the quotes (and no surrogate can occur). */
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function serialiseString(s: string, path: string | null): string {
  if (PLAIN_ASCII.test(s)) return `"${s}"`;
  if (LONE_SURROGATE.test(s)) fail(path, 'string contains a lone surrogate');
  return JSON.stringify(s);
}

/**
 * `value`'s canonical text. `path` is the JSON path of `value` for error messages; `null` tracks none (the
 * first pass: building a path string per key and element was most of the cost of small objects), and a
 * failure then throws {@link RETRY_WITH_PATHS} so {@link canonicalJson} serialises again with paths.
 */
function serialise(value: unknown, path: string | null, stack: Set<object>): string {
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
      let out = '[';
      for (let i = 0; i < obj.length; i++) {
        const itemPath = path === null ? null : `${path}[${i}]`;
        if (!(i in obj)) fail(itemPath, 'array hole is not allowed');
        out += (i ? ',' : '') + serialise(obj[i], itemPath, stack);
      }
      return `${out}]`;
    }
    const proto: unknown = Object.getPrototypeOf(obj);
    if (proto !== Object.prototype && proto !== null) {
      const name = (obj as { constructor?: { name?: unknown } }).constructor?.name;
      fail(path, `non-plain object${typeof name === 'string' ? ` (${name})` : ''} is not allowed`);
    }
    const record = obj as Record<string, unknown>;
    // sort() without a comparator orders strings by UTF-16 code units (RFC 8785 §3.2.3), faster than with one.
    const keys = Object.keys(record).sort();
    let out = '{';
    for (const key of keys) {
      const v = record[key];
      if (v === undefined) continue;
      const keyPath = path === null ? null : `${path}[${JSON.stringify(key)}]`;
      out += `${out.length > 1 ? ',' : ''}${serialiseString(key, keyPath)}:${serialise(v, keyPath, stack)}`;
    }
    return `${out}}`;
  } finally {
    stack.delete(obj);
  }
}

/** Canonical (RFC 8785 style) JSON text of `value`. Throws `TypeError` on unsupported input. */
export function canonicalJson(value: unknown): string {
  try {
    return serialise(value, null, new Set());
  } catch (err) {
    if (err !== RETRY_WITH_PATHS) throw err;
    return serialise(value, '$', new Set());
  }
}

/** Lower-case hex SHA-256 of the UTF-8 encoding of `text`. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** `'sha256:' + sha256Hex(canonicalJson(value))`. */
export function digestOf(value: unknown): string {
  return `sha256:${sha256Hex(canonicalJson(value))}`;
}
