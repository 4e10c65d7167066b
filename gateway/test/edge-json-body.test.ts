import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/errors';
import { parseJsonBody } from '../src/edge/body-parsing';

const RUNS = Number(process.env.GATEWAY_FC_RUNS ?? 300);
const bytes = (text: string) => Buffer.from(text, 'utf8');

/** What the parser threw, as `status code`, or `ok` when it returned. */
function outcome(input: Uint8Array): string {
  try {
    parseJsonBody(input);
    return 'ok';
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    return `${err.status} ${err.code}`;
  }
}

function hasKey(v: unknown, key: string): boolean {
  if (Array.isArray(v)) return v.some((x) => hasKey(x, key));
  if (v !== null && typeof v === 'object') return Object.entries(v).some(([k, x]) => k === key || hasKey(x, key));
  return false;
}

/** Every character as a \uXXXX escape: the same key, spelled differently. */
const escapeAll = (s: string) => `"${[...s].map((c) => [...c].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join('')}"`;

const value = fc.jsonValue({ maxDepth: 3 });
/** JSON text of an object holding `key` twice (second spelling plain or escaped), nested at a random depth. */
const duplicated = fc
  .record({
    key: fc.string({ maxLength: 8 }),
    first: value,
    second: value,
    others: fc.dictionary(fc.string({ maxLength: 6 }), value, { maxKeys: 4 }),
    at: fc.nat(),
    escaped: fc.boolean(),
    wrappers: fc.array(fc.constantFrom('array', 'object'), { maxLength: 4 }),
  })
  .filter((r) => !hasKey(r.others, r.key) && !hasKey(r, '__proto__'))
  .map((r) => {
    const entries = Object.entries(r.others).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
    entries.splice(r.at % (entries.length + 1), 0, `${JSON.stringify(r.key)}:${JSON.stringify(r.first)}`);
    entries.push(`${r.escaped ? escapeAll(r.key) : JSON.stringify(r.key)} : ${JSON.stringify(r.second)}`);
    let text = `{${entries.join(',')}}`;
    for (const w of r.wrappers) text = w === 'array' ? `[1,${text},{"k":[]}]` : `{"outer":${text},"after":{}}`;
    return { text, key: r.key };
  });

describe('JSON body parser', () => {
  it('equals JSON.parse for any JSON value without duplicate or prototype keys', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), fc.constantFrom(undefined, 2, '\t'), (v, indent) => {
        fc.pre(!hasKey(v, '__proto__'));
        const text = JSON.stringify(v, null, indent);
        expect(parseJsonBody(bytes(text))).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps unicode, escapes and lone surrogates as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('\ud800', '\udfff', '"', '\\', '\u0000', '\u2028', 'é', '\ud83d\ude00') }), (a, b) => {
        const text = JSON.stringify({ a, b, [a + '!']: [b] });
        expect(parseJsonBody(bytes(text))).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: RUNS },
    );
  });

  it('rejects any object that holds the same key twice, at any depth, naming the key', () => {
    fc.assert(
      fc.property(duplicated, ({ text, key }) => {
        const err = (() => {
          try {
            parseJsonBody(bytes(text));
          } catch (e) {
            return e;
          }
          throw new Error(`accepted ${text}`);
        })();
        expect(err).toBeInstanceOf(HttpError);
        expect((err as HttpError).status).toBe(400);
        expect((err as HttpError).code).toBe('invalid_json');
        expect((err as HttpError).detail).toContain(JSON.stringify(key).slice(1, -1).slice(0, 60));
      }),
      { numRuns: RUNS },
    );
  });

  it('accepts the same key in sibling and nested objects', () => {
    expect(parseJsonBody(bytes('{"a":{"a":1},"b":[{"a":2},{"a":3}],"c":"a"}'))).toEqual({ a: { a: 1 }, b: [{ a: 2 }, { a: 3 }], c: 'a' });
    expect(parseJsonBody(bytes('[{"a":1},{"a":1}]'))).toEqual([{ a: 1 }, { a: 1 }]);
    expect(parseJsonBody(bytes('{"a\\"":1,"a":2,"\\\\":3,"\\\\\\"":4}'))).toEqual({ 'a"': 1, a: 2, '\\': 3, '\\"': 4 });
  });

  it.each(['{"a":1,"a":1}', '{"a":1,"\\u0061":2}', '{"x":[{"y":1,"y":2}]}', '{"":1,"":2}', '{"é":1,"\\u00e9":2}'])('rejects %s', (text) => {
    expect(outcome(bytes(text))).toBe('400 invalid_json');
  });

  it('refuses __proto__ keys and constructor.prototype anywhere, as secure-json-parse did', () => {
    for (const text of ['{"__proto__":{"x":1}}', '{"a":[{"__proto__":null}]}', '{"constructor":{"prototype":{"x":1}}}', '{"\\u005f_proto__":1}']) {
      expect(outcome(bytes(text)), text).toBe('400 invalid_json');
    }
    expect(parseJsonBody(bytes('{"constructor":{"name":"x"},"prototype":1,"a":{"constructor":[{"prototype":1}]}}'))).toEqual({ constructor: { name: 'x' }, prototype: 1, a: { constructor: [{ prototype: 1 }] } });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('rejects invalid UTF-8 anywhere in the body (it is never replaced by U+FFFD)', () => {
    const bad = fc.constantFrom([0xff], [0xc3, 0x28], [0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]);
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 2 }), bad, (v, seq) => {
        const text = bytes(JSON.stringify({ s: 'ab', v }));
        const i = text.indexOf('ab') + 1;
        const input = Buffer.concat([text.subarray(0, i), Buffer.from(seq), text.subarray(i)]);
        expect(outcome(input)).toBe('400 invalid_json');
      }),
      { numRuns: RUNS },
    );
  });

  it('answers an empty or blank body with invalid_json', () => {
    for (const text of ['', ' ', '\r\n\t']) expect(outcome(bytes(text))).toBe('400 invalid_json');
  });

  it('never throws anything but the 400 for arbitrary bytes; what it accepts is JSON.parse of the UTF-8 text', () => {
    const arbitrary = fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', '\\', ':', ',', 'a', '1', ' ', 'u', 'n', 'e', '-', '.') }).map(bytes));
    fc.assert(
      fc.property(arbitrary, (input) => {
        const result = outcome(input);
        expect(['ok', '400 invalid_json']).toContain(result);
        if (result === 'ok') expect(parseJsonBody(input)).toStrictEqual(JSON.parse(new TextDecoder().decode(input)));
      }),
      { numRuns: RUNS * 3 },
    );
  });
});
