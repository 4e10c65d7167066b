import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Writable } from 'node:stream';
import { createLogger, redactLine } from '../src/logger';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) });
  return { lines, log: createLogger('info', 't', stream) };
}

const SECRET_FIELDS = ['x-api-key', 'x-vat-internal-token', 'authorization', 'key', 'vat_registration_number', 'ioss_intermediary_number', 'vatRegistrationNumber', 'iossIntermediaryNumber'];

describe('process logger never writes secrets', () => {
  it('redacts API keys, internal tokens and full VAT identifiers wherever they sit', () => {
    const { lines, log } = capture();
    const key = 'vat_0123456789abcdef_SECRETSECRETSECRETSECRETSECRETSECRETSECRETS';
    log.info({ req: { headers: { 'x-api-key': key, 'x-vat-internal-token': 'tok-tok-tok-tok-tok', authorization: 'Bearer x' } } }, 'request');
    log.info({ registration: { vat_registration_number: 'DE123456789', ioss_intermediary_number: 'IN2760000001' } }, 'registration');
    log.info({ req: { body: { vat_registration_number: 'ATU12345678', ioss_intermediary_number: 'IN2760000002' } }, vat_registration_number: 'FR12345678901' }, 'nested');
    log.info({ message: { vatRegistrationNumber: 'NL123456789B01', iossIntermediaryNumber: 'IN2760000003' }, iossIntermediaryNumber: 'IN2760000004' }, 'rpc');
    log.info({ key }, 'created');
    log.info({ created: { key } }, 'created');
    log.info({ a: { b: { c: { d: [{ vat_registration_number: 'BE0123456789' }] } } } }, 'deep, in an array');
    log.child({ ioss_intermediary_number: 'IN2760000005' }).info('in a child binding');
    const all = lines.join('\n');
    expect(lines).toHaveLength(8);
    for (const secret of [key, 'tok-tok-tok-tok-tok', 'Bearer x', 'DE123456789', 'IN2760000001', 'ATU12345678', 'IN2760000002', 'FR12345678901', 'NL123456789B01', 'IN2760000003', 'IN2760000004', 'BE0123456789', 'IN2760000005']) expect(all).not.toContain(secret);
    expect(JSON.parse(lines[6]!)).toMatchObject({ msg: 'deep, in an array', a: { b: { c: { d: [{ vat_registration_number: '[redacted]' }] } } } });
    expect(JSON.parse(lines[7]!)).toMatchObject({ msg: 'in a child binding', ioss_intermediary_number: '[redacted]' });
  });

  it('writes a line that names no secret field exactly as pino made it, and a message that only quotes a field name untouched', () => {
    const line = '{"level":30,"time":1,"msg":"the \\"key\\": field is required","route":"/v1/keys"}\n';
    expect(redactLine(line)).toBe(line);
    const { lines, log } = capture();
    log.info({ res: { statusCode: 200 }, responseTime: 0.5 }, 'request completed');
    expect(JSON.parse(lines[0]!)).toMatchObject({ res: { statusCode: 200 }, responseTime: 0.5, msg: 'request completed' });
  });

  it('property: whatever the shape, no value under a secret field survives and every other value does', () => {
    const secretValue = fc.oneof(fc.string({ minLength: 1 }).map((s) => `S3CR3T${s}`), fc.integer().map((n) => ({ nested: `S3CR3T${n}` })));
    const plain = fc.oneof(fc.string().filter((s) => !s.includes('S3CR3T')), fc.integer(), fc.boolean(), fc.constant(null));
    const name = fc.oneof(fc.constantFrom(...SECRET_FIELDS), fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !SECRET_FIELDS.includes(k) && k !== '__proto__'));
    const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small' },
        plain,
        fc.array(tie('tree'), { maxLength: 3 }),
        fc.array(fc.tuple(name, tie('tree'), secretValue), { maxLength: 4 }).map((entries) => Object.fromEntries(entries.map(([k, v, s]) => [k, SECRET_FIELDS.includes(k) ? s : v]))),
      ),
    }));
    fc.assert(
      fc.property(tree, (value) => {
        const line = `${JSON.stringify({ level: 30, msg: 'm', value })}\n`;
        const out = redactLine(line);
        expect(out.endsWith('\n')).toBe(true);
        expect(out).not.toContain('S3CR3T');
        const expected = (function strip(v: unknown): unknown {
          if (Array.isArray(v)) return v.map(strip);
          if (v === null || typeof v !== 'object') return v;
          return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, SECRET_FIELDS.includes(k) ? '[redacted]' : strip(x)]));
        })(JSON.parse(line));
        expect(JSON.parse(out)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
