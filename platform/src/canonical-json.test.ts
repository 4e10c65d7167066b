import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalJson, digestOf, sha256Hex } from './canonical-json';

/** Rebuild a JSON value with every object's keys inserted in a random order. */
function shuffleKeys(value: unknown, rand: () => number): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, rand));
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [entries[i], entries[j]] = [entries[j]!, entries[i]!];
    }
    // Object.fromEntries uses CreateDataProperty, so a "__proto__" key stays an own key.
    return Object.fromEntries(entries.map(([k, v]) => [k, shuffleKeys(v, rand)]));
  }
  return value;
}

/** -0 serialises as 0; normalise the expectation accordingly. */
function normaliseNegativeZero(value: unknown): unknown {
  if (Object.is(value, -0)) return 0;
  if (Array.isArray(value)) return value.map(normaliseNegativeZero);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, normaliseNegativeZero(v)]),
    );
  }
  return value;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('canonicalJson', () => {
  it('sorts keys recursively and emits no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('sorts keys by UTF-16 code units (RFC 8785 §3.2.3 example)', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    // Inspect the text itself: Object.keys would list integer-like keys ("1") first.
    const keys = [...canonicalJson(input).matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) => JSON.parse(`"${m[1]}"`));
    expect(keys).toEqual(['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33']);
  });

  it('serialises numbers like ECMAScript (RFC 8785 §3.2.2.3 examples)', () => {
    expect(canonicalJson([333333333.33333329, 1e30, 4.5, 2e-3, 0.000000000000000000000000001])).toBe(
      '[333333333.3333333,1e+30,4.5,0.002,1e-27]',
    );
    expect(canonicalJson(-0)).toBe('0');
    expect(canonicalJson(9007199254740991)).toBe('9007199254740991');
  });

  it('escapes strings like JSON.stringify', () => {
    expect(canonicalJson('a"b\\c\n\u0001\u2028é')).toBe('"a\\"b\\\\c\\n\\u0001\u2028é"');
    expect(canonicalJson('\ud83d\ude00')).toBe('"\ud83d\ude00"');
  });

  it('handles primitives, empty containers, null prototypes and the __proto__ key', () => {
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(true)).toBe('true');
    expect(canonicalJson(false)).toBe('false');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
    const bare = Object.create(null) as Record<string, unknown>;
    bare.b = 2;
    bare.a = 1;
    expect(canonicalJson(bare)).toBe('{"a":1,"b":2}');
    expect(canonicalJson(JSON.parse('{"__proto__":1,"a":2}'))).toBe('{"__proto__":1,"a":2}');
  });

  it('omits undefined object properties', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });

  it('rejects unsupported values', () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson([1, undefined])).toThrow(/undefined.*\$\[1\]/);
    // eslint-disable-next-line no-sparse-arrays
    expect(() => canonicalJson([1, , 3])).toThrow(/hole/);
    expect(() => canonicalJson(Number.NaN)).toThrow(/non-finite/);
    expect(() => canonicalJson({ a: Number.POSITIVE_INFINITY })).toThrow(/non-finite.*\$\["a"\]/);
    expect(() => canonicalJson(-Infinity)).toThrow(TypeError);
    expect(() => canonicalJson(10n)).toThrow(/bigint/);
    expect(() => canonicalJson({ x: [1n] })).toThrow(/bigint/);
    expect(() => canonicalJson(() => 1)).toThrow(/function/);
    expect(() => canonicalJson(Symbol('s'))).toThrow(/symbol/);
    expect(() => canonicalJson(new Date(0))).toThrow(/Date/);
    expect(() => canonicalJson(new Map())).toThrow(/non-plain/);
    expect(() => canonicalJson(new (class Foo {})())).toThrow(/Foo/);
    expect(() => canonicalJson(new String('x'))).toThrow(/non-plain/);
    expect(() => canonicalJson('\ud800')).toThrow(/lone surrogate/);
    expect(() => canonicalJson({ '\udc00': 1 })).toThrow(/lone surrogate/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cyclic/);
  });

  it('allows shared (non-cyclic) references', () => {
    const shared = { a: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"a":1},{"a":1}]');
  });

  it('property: key insertion order never changes the output', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), fc.integer(), (value, seed) => {
        const shuffled = shuffleKeys(value, mulberry32(seed));
        expect(canonicalJson(shuffled)).toBe(canonicalJson(value));
      }),
      { numRuns: 500 },
    );
  });

  it('property: JSON.parse(canonicalJson(v)) deep-equals v (with -0 read as 0)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(normaliseNegativeZero(value));
      }),
      { numRuns: 500 },
    );
  });

  it('property: the output is the plain reference serialisation (keys compared by code units, strings through JSON.stringify)', () => {
    // The written-out rules, without the serialiser's shortcuts (plain-ASCII strings, sort() without a comparator).
    const reference = (v: unknown): string => {
      if (Array.isArray(v)) return `[${v.map(reference).join(',')}]`;
      if (v !== null && typeof v === 'object') {
        const keys = Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        return `{${keys.map((k) => `${JSON.stringify(k)}:${reference((v as Record<string, unknown>)[k])}`).join(',')}}`;
      }
      return JSON.stringify(v);
    };
    const text = fc.oneof(fc.string({ unit: 'binary' }).filter((t) => !/\p{Cs}/u.test(t)), fc.string({ unit: fc.constantFrom('a', '"', '\\', '\u007f', '\u001f', ' ', '~', 'é', '\u2028') }));
    const value = fc.letrec((tie) => ({
      json: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.array(tie('json')), fc.dictionary(text, tie('json'))),
    })).json;
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(reference(v));
      }),
      { numRuns: 500 },
    );
  });

  it('names the path of a rejected value however deep (the second pass that tracks paths)', () => {
    expect(() => canonicalJson({ b: 1, a: { list: [0, { 'k"ey': [1, 2n] }] } })).toThrow('canonicalJson: bigint is not allowed (convert it to a string first) at $["a"]["list"][1]["k\\"ey"][1]');
    expect(() => canonicalJson([{ ok: 'fine' }, { bad: '\ud800' }])).toThrow('canonicalJson: string contains a lone surrogate at $[1]["bad"]');
  });

  it('property: output is a fixed point (canonicalising canonical output changes nothing)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const once = canonicalJson(value);
        expect(canonicalJson(JSON.parse(once))).toBe(once);
      }),
      { numRuns: 300 },
    );
  });
});

describe('digests', () => {
  it('sha256Hex hashes UTF-8 text', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('digestOf is sha256 of the canonical JSON, prefixed', () => {
    expect(digestOf({ b: 1, a: 2 })).toBe(`sha256:${sha256Hex('{"a":2,"b":1}')}`);
    expect(digestOf({ b: 1, a: 2 })).toBe(digestOf({ a: 2, b: 1 }));
    expect(digestOf({ a: 1 })).not.toBe(digestOf({ a: '1' }));
    expect(digestOf([])).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
