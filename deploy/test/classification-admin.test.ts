import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '@vat/classification/domain/totp';
import { freshDatabase, requireBackends } from '../../test/support/env';
import { runAdmin } from '../../test/support/processes';

const backends = await requireBackends(['postgres']);
const CPA21 = join(process.env.CLASSIFICATION_DATA_DIR ?? fileURLToPath(new URL('../../../shared/data/classification/', import.meta.url)), 'CPA21.csv');

/** A code with at least 15 s of its 30-second step left, so the CLI (a few seconds to start) still sees the current step. */
async function freshCode(secret: string): Promise<string> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 200));
  return totpCode(secret, new Date());
}

async function refused(args: string[], env: Record<string, string>): Promise<string> {
  const err = await runAdmin(args, env).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(err?.message).toMatch(/exited 1/);
  return err!.message;
}

describe.skipIf(!backends.ok)('admin CLI: operators, catalogs, coverage and audit (PostgreSQL)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vat-classification-cli-'));
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let env: Record<string, string>;
  const secrets: Record<string, string> = {};
  let candidate: string;

  beforeAll(async () => {
    db = await freshDatabase({ prefix: 'vat_cls_cli' });
    env = { DATABASE_URL: db.url, DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
  });
  afterAll(async () => {
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('enrols operators and prints each otpauth URI once; the stored secret is encrypted', async () => {
    for (const name of ['alice', 'bob', 'carol']) {
      const { json } = await runAdmin(['operators', 'create', '--name', name], env);
      expect(json.otpauth_uri).toMatch(new RegExp(`^otpauth://totp/.*${name}.*secret=${json.secret}`));
      secrets[name] = json.secret;
    }
    expect(await refused(['operators', 'create', '--name', 'alice'], env)).toContain('operator_exists');
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    const rows = (await sql.query<{ name: string; totp_secret: Buffer }>('select name, totp_secret from classification.operator')).rows;
    await sql.end();
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect(r.totp_secret.includes(Buffer.from(secrets[r.name]!))).toBe(false);
      expect(r.totp_secret.includes(Buffer.from(secrets[r.name]!, 'latin1'))).toBe(false);
      expect(r.totp_secret[0]).toBe(1);
    }
  }, 120_000);

  it('imports CPA 2.1 as a candidate with progress on stderr', async () => {
    const { json, stderr } = await runAdmin(['catalogs', 'import', '--scheme', 'cpa', '--edition', '2.1', '--file', CPA21, '--legal-from', '2015-01-01', '--act', 'Commission Regulation (EU) No 1209/2014', '--source-url', 'https://github.com/eurostat/correspondenceTables', '--operator', 'alice'], env);
    expect(json).toMatchObject({ scheme: 'cpa', catalog_version: '2.1', status: 'under_review', row_count: 5522, legal_to: null });
    expect(stderr).toMatch(/catalog import: store 5,522\/5,522 rows/);
    candidate = json.id;
  });

  it('refuses the importer\'s approval, then approves with a second operator\'s current code', async () => {
    expect(await refused(['catalogs', 'approve', '--id', candidate, '--operator', 'alice', '--totp', await freshCode(secrets.alice!)], env)).toContain('four_eyes_violation');
    const { json } = await runAdmin(['catalogs', 'approve', '--id', candidate, '--operator', 'bob', '--totp', await freshCode(secrets.bob!)], env);
    expect(json).toMatchObject({ status: 'approved', approved_by: 'bob' });
    expect((await runAdmin(['catalogs', 'list', '--scheme', 'cpa'], env)).json).toEqual([expect.objectContaining({ id: candidate, status: 'approved' })]);
  }, 120_000);

  it('imports and publishes a coverage manifest with four eyes, and lists the audit log', async () => {
    const file = join(dir, 'coverage.json');
    writeFileSync(file, JSON.stringify({ format: 'classification_coverage_v1', rules: [{ rule_id: 'DE-62.01', jurisdiction: 'DE', scheme: 'cpa', catalog_version: '2.1', code: '62.01', coverage: 'full', legal_from: '2022-01-01', legal_to: null, tax_class_id: 'standard', supply_kind: 'services', status: 'approved', legal_reference: 'UStG § 12(1)' }] }));
    const imported = (await runAdmin(['coverage', 'import', '--file', file, '--operator', 'alice'], env)).json;
    expect(imported).toMatchObject({ version: 1, status: 'under_review', rule_count: 1 });
    const { json } = await runAdmin(['coverage', 'publish', '--id', imported.id, '--operator', 'carol', '--totp', await freshCode(secrets.carol!)], env);
    expect(json).toMatchObject({ status: 'published', published_by: 'carol' });
    const audit = (await runAdmin(['audit', 'list', '--limit', '20'], env)).json as { action: string; outcome: string; reason: string | null }[];
    expect(audit.map((e) => `${e.action}:${e.outcome}:${e.reason ?? ''}`)).toEqual(
      expect.arrayContaining(['coverage.publish:ok:', 'coverage.import:ok:', 'catalog.approve:ok:', 'catalog.approve:refused:four_eyes_violation', 'catalog.import:ok:', 'operator.create:refused:operator_exists', 'operator.create:ok:']),
    );
  }, 120_000);

  it('answers usage errors with exit code 2', async () => {
    const err = await runAdmin(['catalogs', 'import', '--edition', '2.1'], env).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/exited 2/);
  });
});
