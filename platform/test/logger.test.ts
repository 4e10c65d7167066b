import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from '../src/logger';

describe('process logger never writes secrets', () => {
  it('redacts API keys, internal tokens and full VAT identifiers wherever they sit', () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) });
    const log = createLogger('info', 't', stream);
    const key = 'vat_0123456789abcdef_SECRETSECRETSECRETSECRETSECRETSECRETSECRETS';
    log.info({ req: { headers: { 'x-api-key': key, 'x-vat-internal-token': 'tok-tok-tok-tok-tok', authorization: 'Bearer x' } } }, 'request');
    log.info({ registration: { vat_registration_number: 'DE123456789', ioss_intermediary_number: 'IN2760000001' } }, 'registration');
    log.info({ req: { body: { vat_registration_number: 'ATU12345678', ioss_intermediary_number: 'IN2760000002' } }, vat_registration_number: 'FR12345678901' }, 'nested');
    log.info({ message: { vatRegistrationNumber: 'NL123456789B01', iossIntermediaryNumber: 'IN2760000003' }, iossIntermediaryNumber: 'IN2760000004' }, 'rpc');
    log.info({ key }, 'created');
    log.info({ created: { key } }, 'created');
    const all = lines.join('\n');
    expect(lines).toHaveLength(6);
    for (const secret of [key, 'tok-tok-tok-tok-tok', 'Bearer x', 'DE123456789', 'IN2760000001', 'ATU12345678', 'IN2760000002', 'FR12345678901', 'NL123456789B01', 'IN2760000003', 'IN2760000004']) expect(all).not.toContain(secret);
    expect(all).toContain('[redacted]');
  });
});
