import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@vat/platform/config';
import { build } from '@vat/deploy/build';
import { freshDatabase, requireBackends } from '../../../test/support/env';
import type { ComplianceReportsDeps } from '../src/context';

const backends = await requireBackends(['postgres']);

describe.skipIf(!backends.ok)('npm start (mode all) without DATA_ENCRYPTION_KEY', () => {
  it('generates the key once into DATA_DIR (mode 0600) and reads identifiers back after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vat-reg-key-'));
    const db = await freshDatabase();
    const config = loadConfig({ DATABASE_URL: db.url, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
    try {
      const first = await build('all', config, pino({ level: 'silent' }));
      const keyFile = join(dataDir, 'data-encryption.key');
      const key = readFileSync(keyFile, 'utf8');
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      const { key: apiKey } = await first.gateway!.keys.create('key-file-acct', 'full', false);
      const created = await first.gateway!.app.inject({
        method: 'POST',
        url: '/v1/tax-registrations',
        headers: { 'x-api-key': apiKey },
        payload: { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2024-01-01', status: 'active', vat_registration_number: 'DE123456789' },
      });
      expect(created.statusCode, created.body).toBe(201);
      await first.stop();

      const second = await build('all', config, pino({ level: 'silent' }));
      try {
        expect(readFileSync(keyFile, 'utf8')).toBe(key);
        const deps = second.services.find((s) => s.module.name === 'compliance-reports')!.deps as ComplianceReportsDeps;
        const row = (await deps.pool.query('select account_id, vat_registration_number_encrypted as v from "compliance_reports".tax_registration')).rows[0];
        expect(deps.identifiers.open(BigInt(row.account_id), 'vat_registration_number', row.v)).toBe('DE123456789');
      } finally {
        await second.stop();
      }
    } finally {
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
