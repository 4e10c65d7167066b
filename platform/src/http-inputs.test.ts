import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  MAX_YEAR,
  MIN_YEAR,
  isUuid,
  isValidDate,
  isValidIdempotencyKey,
  isValidSourceId,
  parseTransactionDate,
} from './http-inputs';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Independent calendar oracle based on Date's own normalisation. */
function calendarOk(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(2000, 0, 1));
  t.setUTCFullYear(y, m - 1, d);
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

describe('isValidSourceId', () => {
  it('accepts 1..100 of [A-Za-z0-9_-/]', () => {
    for (const s of ['a', 'shop-1/eu_DE', '/', '-', '_', 'x'.repeat(100), 'ABC/def-123_']) {
      expect(isValidSourceId(s), s).toBe(true);
    }
  });
  it('rejects everything else', () => {
    for (const s of ['', 'x'.repeat(101), 'a b', 'a.b', 'ä', 'a\n', 'a:b', 'a\\b', ' a', 'a?', null, 5, undefined]) {
      expect(isValidSourceId(s), String(s)).toBe(false);
    }
  });
  it('property: agrees with a character-by-character check', () => {
    const allowed = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-/';
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (s) => {
        const expected = s.length >= 1 && s.length <= 100 && [...s].every((c) => allowed.includes(c));
        expect(isValidSourceId(s)).toBe(expected);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...allowed), minLength: 1, maxLength: 100 }), (s) => {
        expect(isValidSourceId(s)).toBe(true);
      }),
    );
  });
});

describe('isValidIdempotencyKey', () => {
  it('accepts 1..255 visible ASCII', () => {
    for (const s of ['a', '!', '~', 'order-123:retry#2', 'k'.repeat(255), '"quoted"']) {
      expect(isValidIdempotencyKey(s), s).toBe(true);
    }
  });
  it('rejects empty, too long, spaces, controls, non-ASCII, non-strings', () => {
    for (const s of ['', 'k'.repeat(256), 'a b', ' ', 'a\tb', 'a\x7f', 'é', '\u0000', 'ключ', null, 1]) {
      expect(isValidIdempotencyKey(s), String(s)).toBe(false);
    }
  });
  it('property: agrees with a code-unit check', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        const expected =
          s.length >= 1 &&
          s.length <= 255 &&
          [...s].every((c) => c.charCodeAt(0) >= 0x21 && c.charCodeAt(0) <= 0x7e && c.length === 1);
        expect(isValidIdempotencyKey(s)).toBe(expected);
      }),
    );
  });
});

describe('isUuid', () => {
  it('accepts RFC 4122 / 9562 UUIDs of any version, any case', () => {
    for (const s of [
      '123e4567-e89b-12d3-a456-426614174000',
      'F47AC10B-58CC-4372-A567-0E02B2C3D479',
      'f47ac10b-58cc-4372-8567-0e02b2c3d479',
      '01890a5d-ac96-774b-bcce-b302099a8057',
      crypto.randomUUID(),
      crypto.randomUUID().toUpperCase(),
    ]) {
      expect(isUuid(s), s).toBe(true);
    }
  });
  it('rejects malformed values, the nil UUID and non-RFC variants', () => {
    for (const s of [
      '',
      '00000000-0000-0000-0000-000000000000',
      'f47ac10b-58cc-4372-c567-0e02b2c3d479', // variant 110x
      'f47ac10b-58cc-0372-a567-0e02b2c3d479', // version 0
      'f47ac10b58cc4372a5670e02b2c3d479',
      '{f47ac10b-58cc-4372-a567-0e02b2c3d479}',
      'f47ac10b-58cc-4372-a567-0e02b2c3d47',
      'g47ac10b-58cc-4372-a567-0e02b2c3d479',
      ' f47ac10b-58cc-4372-a567-0e02b2c3d479',
      'f47ac10b-58cc-4372-a567-0e02b2c3d479\n',
      null,
    ]) {
      expect(isUuid(s), String(s)).toBe(false);
    }
  });
  it('property: fc.uuid() values are accepted in either case', () => {
    fc.assert(
      fc.property(fc.uuid(), (u) => {
        expect(isUuid(u)).toBe(true);
        expect(isUuid(u.toUpperCase())).toBe(true);
      }),
    );
  });
});

describe('isValidDate', () => {
  it('accepts real calendar dates', () => {
    for (const s of ['2024-02-29', '2000-02-29', '1900-01-01', '9999-12-31', '2023-12-31', '2024-04-30']) {
      expect(isValidDate(s), s).toBe(true);
    }
  });
  it('rejects impossible dates and other forms', () => {
    for (const s of [
      '2023-02-29',
      '1900-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-04-31',
      '2024-01-00',
      '2024-1-05',
      '24-01-05',
      '1899-12-31',
      '0000-01-01',
      '+02024-01-01',
      '2024-01-01T00:00:00Z',
      '2024/01/01',
      ' 2024-01-01',
      '２０２４-01-01',
      '',
      null,
    ]) {
      expect(isValidDate(s), String(s)).toBe(false);
    }
  });
  it('property: agrees with a Date-based calendar oracle', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: MAX_YEAR }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (y, m, d) => {
          const s = `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
          expect(isValidDate(s)).toBe(y >= MIN_YEAR && m >= 1 && m <= 12 && calendarOk(y, m, d));
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('parseTransactionDate', () => {
  const ok = (s: string) => {
    const r = parseTransactionDate(s);
    if (!r.ok) throw new Error(`expected ${s} to parse`);
    return r;
  };

  it('resolves a date-only input to midnight UTC', () => {
    const r = ok('2024-02-29');
    expect(r.iso).toBe('2024-02-29T00:00:00.000Z');
    expect(r.dateOnly).toBe(true);
    expect(r.instant.getTime()).toBe(Date.UTC(2024, 1, 29));
  });

  it('normalises date-times to UTC with millisecond precision', () => {
    expect(ok('2024-03-10T12:34:56Z').iso).toBe('2024-03-10T12:34:56.000Z');
    expect(ok('2024-03-10T12:34:56Z').dateOnly).toBe(false);
    expect(ok('2024-03-10T12:34:56.7Z').iso).toBe('2024-03-10T12:34:56.700Z');
    expect(ok('2024-03-10T12:34:56.123456789Z').iso).toBe('2024-03-10T12:34:56.123Z');
    expect(ok('2024-03-10T12:34:56.999999999Z').iso).toBe('2024-03-10T12:34:56.999Z'); // truncated
    expect(ok('2024-03-10T01:00:00+02:00').iso).toBe('2024-03-09T23:00:00.000Z');
    expect(ok('2024-12-31T22:30:00-01:30').iso).toBe('2025-01-01T00:00:00.000Z');
    expect(ok('2024-03-10T12:00:00-00:00').iso).toBe('2024-03-10T12:00:00.000Z');
    expect(ok('2024-03-10T12:00:00+23:59').iso).toBe('2024-03-09T12:01:00.000Z');
    expect(ok('1900-01-01T00:00:00Z').iso).toBe('1900-01-01T00:00:00.000Z');
    expect(ok('9999-12-31T23:59:59.999Z').iso).toBe('9999-12-31T23:59:59.999Z');
  });

  it('rejects invalid inputs', () => {
    for (const s of [
      '',
      '2023-02-29',
      '2023-02-29T00:00:00Z',
      '2024-13-01',
      '2024-13-01T00:00:00Z',
      '2024-01-01T24:00:00Z',
      '2024-01-01T23:60:00Z',
      '2016-12-31T23:59:60Z', // leap second: refused
      '2024-01-01t00:00:00Z',
      '2024-01-01T00:00:00z',
      '2024-01-01 00:00:00Z',
      '2024-01-01T00:00:00', // no offset
      '2024-01-01T00:00Z', // no seconds
      '2024-01-01T00:00:00.Z',
      '2024-01-01T00:00:00.1234567890Z', // > 9 fractional digits
      '2024-01-01T00:00:00+24:00',
      '2024-01-01T00:00:00+01:60',
      '2024-01-01T00:00:00+0100',
      '2024-01-01T00:00:00+01',
      '1899-12-31',
      '1899-12-31T23:59:59Z',
      '1900-01-01T00:30:00+01:00', // 1899 in UTC
      '9999-12-31T23:00:00-05:00', // year 10000 in UTC
      '10000-01-01',
      '+002024-01-01T00:00:00Z',
      'now',
      'garbage',
      ' 2024-01-01',
      '2024-01-01 ',
      '2024-01-01\n',
      '1704067200',
    ]) {
      expect(parseTransactionDate(s), s).toEqual({ ok: false });
    }
    for (const v of [null, undefined, 0, 1704067200000, new Date(), {}, []]) {
      expect(parseTransactionDate(v)).toEqual({ ok: false });
    }
  });

  it('property: random strings and values never throw', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.anything()), (s) => {
        const r = parseTransactionDate(s);
        expect(typeof r.ok).toBe('boolean');
        isValidDate(s);
        isUuid(s);
        isValidSourceId(s);
        isValidIdempotencyKey(s);
      }),
      { numRuns: 2000 },
    );
    // strings built from the date alphabet hit far more of the parser's branches
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789-:.TZ+tz '), maxLength: 40 }), (s) => {
        const r = parseTransactionDate(s);
        if (r.ok) expect(parseTransactionDate(r.iso)).toEqual({ ...r, dateOnly: false });
      }),
      { numRuns: 3000 },
    );
  });

  const dateArb = fc
    .record({ y: fc.integer({ min: MIN_YEAR, max: MAX_YEAR }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 31 }) })
    .filter(({ y, m, d }) => calendarOk(y, m, d));

  it('property: generated valid dates parse to Date.UTC midnight', () => {
    fc.assert(
      fc.property(dateArb, ({ y, m, d }) => {
        const s = `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
        const r = ok(s);
        expect(r.dateOnly).toBe(true);
        expect(r.instant.getTime()).toBe(Date.UTC(y, m - 1, d));
        expect(r.iso).toBe(`${s}T00:00:00.000Z`);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: generated valid date-times parse correctly and their iso round-trips', () => {
    const dateTimeArb = fc.record({
      date: dateArb,
      h: fc.integer({ min: 0, max: 23 }),
      mi: fc.integer({ min: 0, max: 59 }),
      s: fc.integer({ min: 0, max: 59 }),
      frac: fc.option(fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 9 })),
      offset: fc.option(
        fc.record({ sign: fc.constantFrom('+', '-'), oh: fc.integer({ min: 0, max: 23 }), om: fc.integer({ min: 0, max: 59 }) }),
      ),
    });
    fc.assert(
      fc.property(dateTimeArb, ({ date: { y, m, d }, h, mi, s, frac, offset }) => {
        const text =
          `${pad(y, 4)}-${pad(m)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}` +
          (frac === null ? '' : `.${frac}`) +
          (offset === null ? 'Z' : `${offset.sign}${pad(offset.oh)}:${pad(offset.om)}`);
        const ms = frac === null ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'));
        const offMin = offset === null ? 0 : (offset.sign === '-' ? -1 : 1) * (offset.oh * 60 + offset.om);
        const expected = Date.UTC(y, m - 1, d, h, mi, s, ms) - offMin * 60_000;
        const utcYear = new Date(expected).getUTCFullYear();
        const r = parseTransactionDate(text);
        if (utcYear < MIN_YEAR || utcYear > MAX_YEAR) {
          expect(r).toEqual({ ok: false });
          return;
        }
        if (!r.ok) throw new Error(`expected ${text} to parse`);
        expect(r.dateOnly).toBe(false);
        expect(r.instant.getTime()).toBe(expected);
        expect(r.iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        // independent oracle: the ECMAScript date-time string format (exactly 3 fraction digits or none)
        if (frac === null || frac.length === 3) expect(new Date(text).getTime()).toBe(expected);
        // the normalised form is itself accepted and is a fixed point
        const again = ok(r.iso);
        expect(again.iso).toBe(r.iso);
        expect(again.instant.getTime()).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });
});
