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
    log.info({ key }, 'created');
    log.info({ created: { key } }, 'created');
    const all = lines.join('\n');
    expect(lines).toHaveLength(4);
    for (const secret of [key, 'tok-tok-tok-tok-tok', 'Bearer x', 'DE123456789', 'IN2760000001']) expect(all).not.toContain(secret);
    expect(all).toContain('[redacted]');
  });
});
