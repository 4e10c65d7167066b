import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkIntermediaryNumber, checkRegistrationNumber, maskIdentifier, MEMBER_STATES, memberState, normalizeIdentifier, type SchemeType } from './identifiers';

const m = (code: string) => memberState(code)!;
const SCHEMES: SchemeType[] = ['union_oss', 'non_union_oss', 'ioss'];

/** One valid and some invalid VAT numbers per Member State (formats only; check digits are not verified). */
const VAT_NUMBERS: Record<string, { valid: string[]; invalid: string[] }> = {
  AT: { valid: ['ATU12345678'], invalid: ['AT12345678', 'ATU1234567', 'ATU123456789'] },
  BE: { valid: ['BE0123456789', 'BE1234567890'], invalid: ['BE123456789', 'BE2234567890', 'BE01234567890'] },
  BG: { valid: ['BG123456789', 'BG1234567890'], invalid: ['BG12345678', 'BG12345678901'] },
  CY: { valid: ['CY12345678X'], invalid: ['CY123456789', 'CY1234567XX'] },
  CZ: { valid: ['CZ12345678', 'CZ123456789', 'CZ1234567890'], invalid: ['CZ1234567', 'CZ12345678901'] },
  DE: { valid: ['DE123456789'], invalid: ['DE12345678', 'DE1234567890', 'DEU12345678'] },
  DK: { valid: ['DK12345678'], invalid: ['DK1234567', 'DK123456789'] },
  EE: { valid: ['EE123456789'], invalid: ['EE12345678'] },
  ES: { valid: ['ESB12345678', 'ES12345678Z', 'ESX1234567L'], invalid: ['ES123456789', 'ESAB1234567', 'ES1234567'] },
  FI: { valid: ['FI12345678'], invalid: ['FI123456789'] },
  FR: { valid: ['FR12345678901', 'FRXX123456789', 'FR1A123456789'], invalid: ['FR1234567890', 'FRXX12345678', 'FR123456789012'] },
  GR: { valid: ['EL123456789'], invalid: ['GR123456789', 'EL12345678'] },
  HR: { valid: ['HR12345678901'], invalid: ['HR1234567890'] },
  HU: { valid: ['HU12345678'], invalid: ['HU123456789'] },
  IE: { valid: ['IE1234567T', 'IE1234567TW', 'IE1S12345T', 'IE1+12345T'], invalid: ['IE12345678', 'IE1234567TWX'] },
  IT: { valid: ['IT12345678901'], invalid: ['IT1234567890'] },
  LT: { valid: ['LT123456789', 'LT123456789012'], invalid: ['LT1234567890', 'LT12345678'] },
  LU: { valid: ['LU12345678'], invalid: ['LU1234567'] },
  LV: { valid: ['LV12345678901'], invalid: ['LV1234567890'] },
  MT: { valid: ['MT12345678'], invalid: ['MT123456789'] },
  NL: { valid: ['NL123456789B01'], invalid: ['NL123456789B1', 'NL123456789A01', 'NL12345678B01'] },
  PL: { valid: ['PL1234567890'], invalid: ['PL123456789'] },
  PT: { valid: ['PT123456789'], invalid: ['PT12345678'] },
  RO: { valid: ['RO12', 'RO1234567890'], invalid: ['RO1', 'RO01234', 'RO12345678901'] },
  SE: { valid: ['SE123456789001'], invalid: ['SE123456789012', 'SE1234567890'] },
  SI: { valid: ['SI12345678'], invalid: ['SI1234567'] },
  SK: { valid: ['SK1234567890'], invalid: ['SK123456789'] },
};

describe('Member States', () => {
  it('are the EU-27 with Greece as GR (VAT prefix EL) and distinct ISO numeric codes', () => {
    expect(MEMBER_STATES.map((s) => s.code).sort()).toEqual(Object.keys(VAT_NUMBERS).sort());
    expect(MEMBER_STATES).toHaveLength(27);
    expect(new Set(MEMBER_STATES.map((s) => s.numeric)).size).toBe(27);
    expect(m('GR').vatPrefix).toBe('EL');
    expect(memberState('EL')).toBeUndefined();
    for (const s of MEMBER_STATES) if (s.code !== 'GR') expect(s.vatPrefix).toBe(s.code);
  });
});

describe('Union OSS: the VAT number of the Member State of identification', () => {
  it.each(Object.entries(VAT_NUMBERS))('%s', (code, { valid, invalid }) => {
    for (const v of valid) expect(checkRegistrationNumber('union_oss', m(code), v), v).toEqual({ ok: true, value: v });
    for (const v of invalid) expect(checkRegistrationNumber('union_oss', m(code), v).ok, v).toBe(false);
  });

  it("refuses another Member State's number and explains the expected format", () => {
    expect(checkRegistrationNumber('union_oss', m('AT'), 'DE123456789')).toEqual({ ok: false, expected: 'a VAT number of AT: ATU + 8 digits' });
    expect(checkRegistrationNumber('union_oss', m('GR'), 'GR123456789')).toEqual({ ok: false, expected: 'a VAT number of GR: EL + 9 digits' });
  });

  it('ignores spaces, dots and hyphens and upper-cases letters', () => {
    expect(normalizeIdentifier('de 123.456-789')).toBe('DE123456789');
    expect(checkRegistrationNumber('union_oss', m('NL'), 'nl 1234.56789.b01')).toEqual({ ok: true, value: 'NL123456789B01' });
    expect(checkRegistrationNumber('union_oss', m('DE'), 'DE\t123456789').ok).toBe(false);
  });
});

describe('IOSS, intermediary and non-Union OSS numbers embed the ISO numeric code of the Member State', () => {
  it('IOSS: IM + 10 digits, IM + numeric code + 7', () => {
    expect(checkRegistrationNumber('ioss', m('DE'), 'IM2760000742')).toEqual({ ok: true, value: 'IM2760000742' });
    expect(checkRegistrationNumber('ioss', m('LU'), 'im 442 000 1201')).toEqual({ ok: true, value: 'IM4420001201' });
    expect(checkRegistrationNumber('ioss', m('GR'), 'IM3000000001').ok).toBe(true);
    for (const bad of ['IM5280000310', 'IM276000074', 'IM27600007421', 'IN2760000742', 'DE123456789']) expect(checkRegistrationNumber('ioss', m('DE'), bad).ok, bad).toBe(false);
  });

  it('intermediary: IN + 10 digits, IN + numeric code + 7', () => {
    expect(checkIntermediaryNumber(m('IE'), 'IN3720000224')).toEqual({ ok: true, value: 'IN3720000224' });
    for (const bad of ['IM3720000224', 'IN2760000224', 'IN372000022']) expect(checkIntermediaryNumber(m('IE'), bad).ok, bad).toBe(false);
  });

  it('non-Union OSS: EU + 9 digits, EU + numeric code + 6', () => {
    expect(checkRegistrationNumber('non_union_oss', m('IE'), 'EU372000041')).toEqual({ ok: true, value: 'EU372000041' });
    for (const bad of ['EU276000041', 'EU37200004', 'EU3720000411', 'IE1234567T']) expect(checkRegistrationNumber('non_union_oss', m('IE'), bad).ok, bad).toBe(false);
  });
});

describe('maskIdentifier', () => {
  it('keeps the prefix and the last 4 characters: DE*****6789', () => {
    expect(maskIdentifier('DE123456789')).toBe('DE*****6789');
    expect(maskIdentifier('ATU12345678')).toBe('AT*****5678');
    expect(maskIdentifier('IM2760000742')).toBe('IM******0742');
    expect(maskIdentifier('NL123456789B01')).toBe('NL********9B01');
    expect(maskIdentifier('EU372000041')).toBe('EU*****0041');
  });

  it('shows at most half of a short remainder', () => {
    expect(maskIdentifier('RO12')).toBe('RO*2');
    expect(maskIdentifier('RO123')).toBe('RO**3');
    expect(maskIdentifier('RO123456')).toBe('RO***456');
    expect(maskIdentifier('DE')).toBe('**');
    expect(maskIdentifier('')).toBe('');
  });
});

/** Positions 2 .. length-5 of a mask are asterisks: the prefix and at most 4 trailing characters are all it reveals. */
function expectSafeMask(value: string, masked: string) {
  const v = [...value];
  const mk = [...masked];
  expect(mk.length).toBe(v.length);
  if (v.length <= 2) {
    expect(masked).toBe('*'.repeat(v.length));
    return;
  }
  expect(mk.slice(0, 2)).toEqual(v.slice(0, 2));
  const rest = v.length - 2;
  const shown = [...mk.slice(2).join('').replace(/^\*+/, '')];
  expect(shown.length).toBeLessThanOrEqual(Math.min(4, Math.floor(rest / 2)));
  for (let i = 2; i < v.length - 4; i++) expect(mk[i]).toBe('*');
  expect(mk.slice(v.length - shown.length)).toEqual(v.slice(v.length - shown.length));
}

/** A number of each Member State's documented format (fast-check cannot generate lookaheads: generate without, keep the matches). */
const validNumber = fc
  .constantFrom(...MEMBER_STATES)
  .chain((s) => fc.stringMatching(new RegExp(s.vatBody.source.replace(/\(\?![^)]*\)/, ''))).filter((body) => s.vatBody.test(body)).map((body) => ({ s, value: `${s.vatPrefix}${body}` })));

describe('properties', () => {
  it('the validators never throw, whatever the input, scheme and Member State', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SCHEMES), fc.constantFrom(...MEMBER_STATES), fc.string({ unit: 'binary', maxLength: 80 }), (scheme, s, raw) => {
        const r = checkRegistrationNumber(scheme, s, raw);
        if (r.ok) expect(r.value).toBe(normalizeIdentifier(raw));
        const i = checkIntermediaryNumber(s, raw);
        if (i.ok) expect(i.value).toMatch(/^IN\d{10}$/);
      }),
      { numRuns: 2000 },
    );
  });

  it('every number of the documented format is accepted, for its own Member State only', () => {
    fc.assert(
      fc.property(validNumber, fc.constantFrom(...MEMBER_STATES), ({ s, value }, other) => {
        expect(checkRegistrationNumber('union_oss', s, value)).toEqual({ ok: true, value });
        if (other.vatPrefix !== s.vatPrefix) expect(checkRegistrationNumber('union_oss', other, value).ok).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('a mask never throws and never reveals more than the prefix and 4 trailing characters', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (value) => expectSafeMask(value, maskIdentifier(value))), { numRuns: 2000 });
    fc.assert(fc.property(validNumber, ({ value }) => expectSafeMask(value, maskIdentifier(value))), { numRuns: 1000 });
  });
});
