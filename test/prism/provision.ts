/**
 * What the Prism check needs in the running service before it sends anything, done the operator's way:
 * the admin CLI next to `npm start` (keys, an integration, catalog operators, the CPA 2.1 catalog, a
 * coverage manifest and the treatment release, each approved by a second operator with a current TOTP).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { totpCode } from '@vat/classification/domain/totp';
import { runAdmin, sleep } from '../support/processes';

const CPA21 = join(process.env.CLASSIFICATION_DATA_DIR ?? fileURLToPath(new URL('../../../shared/data/classification/', import.meta.url)), 'CPA21.csv');

export type Provisioned = {
  keys: Record<'full' | 'readOnly' | 'calculateOnly', string>;
  integrationId: number;
  /** Whether the CPA 2.1 catalog and its coverage are approved (else classification answers fail closed). */
  classification: boolean;
};

/** A code with at least 15 s of its 30-second step left, so the CLI (a few seconds to start) still sees the current step. */
async function freshCode(secret: string): Promise<string> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 15_000) await sleep(left + 200);
  return totpCode(secret, new Date());
}

export async function provision(dataDir: string, workDir: string, log: (line: string) => void): Promise<Provisioned> {
  const admin = async (args: string[]) => (await runAdmin(args, { DATA_DIR: dataDir }, 180_000)).json;
  const key = async (scope: string) => (await admin(['keys', 'create', '--account', 'prism', '--scope', scope, '--label', 'prism check'])).key as string;
  const operator = async (name: string) => (await admin(['operators', 'create', '--name', name])).secret as string;
  // Independent CLI runs side by side (each is a process of its own against the running server's database).
  const [full, readOnly, calculateOnly, integration, , bob, carol, dave] = await Promise.all([
    key('full'), key('read-only'), key('calculate-only'), admin(['integrations', 'create', '--account', 'prism', '--name', 'shop']),
    operator('alice'), operator('bob'), operator('carol'), operator('dave'),
  ]);
  const keys = { full, readOnly, calculateOnly };
  const integrationId = Number(integration.id);
  const classification = existsSync(CPA21);
  const [treatment, catalog] = await Promise.all([
    admin(['treatments', 'import', '--file', 'seeds/treatment-releases/eu27-sales-vat-2026-11.json', '--operator', 'alice']),
    classification
      ? admin(['catalogs', 'import', '--scheme', 'cpa', '--edition', '2.1', '--file', CPA21, '--legal-from', '2015-01-01', '--act', 'Commission Regulation (EU) No 1209/2014', '--source-url', 'https://github.com/eurostat/correspondenceTables', '--operator', 'alice'])
      : undefined,
  ]);
  // Second operators, each with a code of the current step.
  await Promise.all([
    (async () => admin(['treatments', 'activate', '--id', treatment.id, '--operator', 'dave', '--totp', await freshCode(dave)]))(),
    ...(catalog ? [(async () => admin(['catalogs', 'approve', '--id', catalog.id, '--operator', 'bob', '--totp', await freshCode(bob)]))()] : []),
  ]);
  log(catalog ? 'treatment release activated, CPA 2.1 catalog approved' : 'treatment release activated');
  if (!classification) {
    log(`no ${CPA21}: the classification routes are checked on their fail-closed answers only (set CLASSIFICATION_DATA_DIR)`);
    return { keys, integrationId, classification: false };
  }
  const rule = (jurisdiction: string, reference: string) => ({
    rule_id: `${jurisdiction}-CPA-62.01`, jurisdiction, scheme: 'cpa', catalog_version: '2.1', code: '62.01', coverage: 'full', legal_from: '2015-01-01', legal_to: null,
    tax_class_id: 'standard', supply_kind: 'services', status: 'approved', legal_reference: reference,
  });
  const file = join(workDir, 'coverage.json');
  writeFileSync(file, JSON.stringify({ format: 'classification_coverage_v1', rules: [rule('DE', 'UStG § 12(1)'), rule('FR', 'CGI art. 278')] }));
  const manifest = await admin(['coverage', 'import', '--file', file, '--operator', 'alice']);
  await admin(['coverage', 'publish', '--id', manifest.id, '--operator', 'carol', '--totp', await freshCode(carol)]);
  log('coverage manifest published');
  return { keys, integrationId, classification: true };
}
