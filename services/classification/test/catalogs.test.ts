import { createHash } from 'node:crypto';
import { ConnectError } from '@connectrpc/connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClassificationService } from '@vat/gen/vat/classification/v1/classification_service_pb';
import { reasonOf } from '@vat/platform/rpc-errors';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import { approveCatalog, importCatalog } from '../src/admin/catalogs';
import { parseCatalogFile } from '../src/domain/catalog-file';
import type { ClassificationDeps } from '../src/context';
import { dataFile, refusal, Workflow } from './support';

const backends = await requireBackends(['postgres']);

async function rpcReason(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (err) {
    return reasonOf(ConnectError.from(err));
  }
  throw new Error('the call succeeded');
}

describe.skipIf(!backends.ok)('catalog import, four-eyes approval and exact-code validation (PostgreSQL)', () => {
  let h: ServiceHarness<ClassificationDeps>;
  let w: Workflow;
  let client: ReturnType<ServiceHarness['client']> & ReturnType<typeof clientOf>;
  let cn2022: Awaited<ReturnType<Workflow['import']>>;
  const clientOf = (x: ServiceHarness) => x.client(ClassificationService);
  const get = (code: string, q: { legalDate?: string; catalogVersion?: string; scheme?: string } = {}) =>
    client.getClassificationCode({ scheme: q.scheme ?? 'cn', code, legalDate: q.legalDate ?? '2022-06-01', catalogVersion: q.catalogVersion });
  const audit = async (action: string) => w.deps.operators.auditLog({ action, limit: 50 });

  beforeAll(async () => {
    h = await startServiceHarness<ClassificationDeps>('classification');
    client = clientOf(h) as typeof client;
    w = new Workflow(h.deps.pool);
    await w.enrol('alice', 'bob', 'carol');
    cn2022 = await w.import('cn2022');
  });
  afterAll(async () => h?.close());

  // The import's speed is measured by `npm run bench` (test/bench/catalog-import.ts), not here.
  it('imports CN 2022 (12,630 rows) as a candidate under review, with raw bytes, SHA-256 and per-level counts', async () => {
    const bytes = dataFile('CN2022.csv');
    expect(cn2022).toMatchObject({
      scheme: 'cn',
      catalog_version: '2022',
      revision: 1,
      status: 'under_review',
      legal_from: '2022-01-01',
      legal_to: '2023-01-01',
      file_sha256: createHash('sha256').update(bytes).digest('hex'),
      row_count: 12630,
      level_counts: { section: 21, chapter: 97, heading: 957, hs_subheading: 1819, cn_subheading: 9736 },
      imported_by: 'alice',
      approved_by: null,
      diff: { base: null, added: 12630, removed: 0, relabelled: 0 },
    });
    expect(Buffer.compare(await h.deps.catalogs.rawFile(BigInt(cn2022.id)), bytes)).toBe(0);
    expect((await audit('catalog.import'))[0]).toMatchObject({ operator: 'alice', outcome: 'ok', target: `catalog_edition:${cn2022.id}` });
  });

  it('does not serve a candidate: 404 catalog_unavailable until it is approved', async () => {
    expect(await rpcReason(get('01012100'))).toBe('catalog_unavailable');
  });

  it('refuses and audits an approval by the importer (four eyes)', async () => {
    w.nextStep();
    expect(await refusal(approveCatalog(w.deps, { id: cn2022.id, operator: 'alice', totp: w.code('alice') }))).toBe('four_eyes_violation');
    expect((await audit('catalog.approve'))[0]).toMatchObject({ operator: 'alice', outcome: 'refused', reason: 'four_eyes_violation' });
  });

  it('refuses a stale code, a wrong code and an unknown operator, and audits each', async () => {
    w.nextStep();
    expect(await refusal(approveCatalog(w.deps, { id: cn2022.id, operator: 'bob', totp: w.code('bob', -1) }))).toBe('totp_stale');
    expect(await refusal(approveCatalog(w.deps, { id: cn2022.id, operator: 'bob', totp: w.code('carol') }))).toBe('totp_invalid');
    expect(await refusal(approveCatalog(w.deps, { id: cn2022.id, operator: 'bob', totp: 'abcdef' }))).toBe('totp_invalid');
    expect(await refusal(approveCatalog(w.deps, { id: cn2022.id, operator: 'mallory', totp: '123456' }))).toBe('unknown_operator');
    const reasons = (await audit('catalog.approve')).slice(0, 4).map((e) => e.reason);
    expect(reasons).toEqual(['unknown_operator', 'totp_invalid', 'totp_invalid', 'totp_stale']);
    expect((await h.deps.catalogs.byId(BigInt(cn2022.id)))!.status).toBe('under_review');
  });

  it('approves with a second operator\'s current code; the approved edition then serves every code of the file', async () => {
    const approved = await w.approve(cn2022.id, 'bob');
    expect(approved).toMatchObject({ status: 'approved', approved_by: 'bob', digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    const parsed = parseCatalogFile('cn', '2022', dataFile('CN2022.csv'));
    const stored = await h.deps.catalogs.codes(BigInt(cn2022.id));
    expect(stored.map((c) => c.code)).toEqual(parsed.rows.map((r) => r.code));
    // Every level through the RPC, and a spread of the rest.
    const sample = parsed.rows.filter((_, i) => i % 211 === 0 || i === parsed.rows.length - 1);
    for (const row of sample) {
      const { code } = await get(row.code);
      expect(code).toMatchObject({ normalizedCode: row.code, level: row.level, legalText: row.legalText, catalogVersion: '2022', catalogDigest: approved.digest });
    }
  });

  it('answers a code with every field of the record', async () => {
    const { code } = await get('0101 21 00');
    expect(code).toMatchObject({
      scheme: 'cn',
      normalizedCode: '01012100',
      displayCode: '0101 21 00',
      level: 'cn_subheading',
      parentCode: '0101',
      selfExplanatoryText: 'Pure-bred breeding horses',
      legalText: '0101 21 00 -- Pure-bred breeding animals',
      sourceUrl: 'https://github.com/eurostat/correspondenceTables',
      sourceConceptId: '010121000080',
      catalogVersion: '2022',
      catalogRevision: 1,
      legalAct: 'Commission Implementing Regulation (EU) 2021/1832',
      applicableFrom: '2022-01-01',
      applicableTo: '2023-01-01',
      recordedAt: '2026-11-24T10:00:05.000Z',
    });
    expect((await get('XXI')).code!.level).toBe('section');
    expect((await get('97')).code!.parentCode).toBe('XXI');
  });

  it('answers the codes of the spec for absent codes, uncovered dates and versions', async () => {
    expect(await rpcReason(get('01019999'))).toBe('code_not_found');
    expect(await rpcReason(get('01012100', { legalDate: '2023-06-01' }))).toBe('catalog_unavailable');
    expect(await rpcReason(get('01012100', { catalogVersion: '2023', legalDate: '2023-06-01' }))).toBe('catalog_unavailable');
    expect(await rpcReason(get('01012100', { catalogVersion: '2022', legalDate: '2021-06-01' }))).toBe('catalog_version_outside_legal_date');
    expect(await rpcReason(get('0101210'))).toBe('invalid_code');
    expect(await rpcReason(get('01012100', { catalogVersion: 'CN2022' }))).toBe('invalid_catalog_version');
    expect(await rpcReason(get('01012100', { legalDate: '2022-02-30' }))).toBe('invalid_legal_date');
    expect(await rpcReason(get('01.11.11', { scheme: 'cpa' }))).toBe('catalog_unavailable');
  });

  it('refuses a code already used (no reuse), then approves CN 2021 with the next code', async () => {
    const cn2021 = await w.import('cn2021');
    // Diffed against the latest approved edition of the scheme (CN 2022), exactly as the two files differ.
    const codes = (file: string) => new Set(parseCatalogFile('cn', file.slice(2, 6), dataFile(file)).rows.map((r) => r.code));
    const [old, current] = [codes('CN2021.csv'), codes('CN2022.csv')];
    expect(cn2021.diff).toMatchObject({ base: { catalog_version: '2022', revision: 1 }, added: [...old].filter((c) => !current.has(c)).length, removed: [...current].filter((c) => !old.has(c)).length });
    // Same instant and code as the approval of CN 2022.
    expect(await refusal(approveCatalog(w.deps, { id: cn2021.id, operator: 'bob', totp: w.code('bob') }))).toBe('totp_reused');
    expect((await audit('catalog.approve'))[0]).toMatchObject({ outcome: 'refused', reason: 'totp_reused' });
    expect(await w.approve(cn2021.id, 'carol')).toMatchObject({ status: 'approved' });
    expect((await get('01012100', { legalDate: '2021-03-01' })).code!.catalogVersion).toBe('2021');
  });

  it('diffs a correction against the served revision and keeps serving the old revision until the correction is approved', async () => {
    const original = dataFile('CN2022.csv').toString('utf8');
    const corrected = original.replace('01012100,Pure-bred breeding horses,', '01012100,"Pure-bred breeding horses, corrected",').replace(/^01013000,.*\r?\n/m, '');
    const candidate = await w.import('cn2022', 'alice', Buffer.from(corrected));
    expect(candidate).toMatchObject({ revision: 2, status: 'under_review', diff: { added: 0, removed: 1, relabelled: 1, removed_codes: ['01013000'], relabelled_codes: ['01012100'] } });
    expect((await get('01012100')).code).toMatchObject({ selfExplanatoryText: 'Pure-bred breeding horses', catalogRevision: 1 });
    expect((await get('01013000')).code!.normalizedCode).toBe('01013000');
    const approved = await w.approve(candidate.id, 'bob');
    expect((await get('01012100')).code).toMatchObject({ selfExplanatoryText: 'Pure-bred breeding horses, corrected', catalogRevision: 2, catalogDigest: approved.digest });
    expect(await rpcReason(get('01013000'))).toBe('code_not_found');
  });

  it('refuses and audits the approval of a candidate whose stored file was altered after import', async () => {
    const cpa = await w.import('cpa21');
    expect(cpa).toMatchObject({ row_count: 5522, level_counts: { section: 21, division: 88, group: 262, class: 576, category: 1357, subcategory: 3218 } });
    await h.deps.pool.query(`update classification.catalog_edition set raw_file = raw_file || '\\x0a'::bytea where id = $1`, [cpa.id]);
    expect(await refusal(w.approve(cpa.id, 'bob'))).toBe('candidate_tampered');
    expect((await audit('catalog.approve'))[0]).toMatchObject({ operator: 'bob', outcome: 'refused', reason: 'candidate_tampered' });
    const rows = await w.import('cpa21');
    await h.deps.pool.query(`delete from classification.catalog_code where edition_id = $1 and code = '01.11.11'`, [rows.id]);
    expect(await refusal(w.approve(rows.id, 'bob'))).toBe('candidate_tampered');
    const clean = await w.import('cpa21');
    expect(await w.approve(clean.id, 'bob')).toMatchObject({ status: 'approved', legal_to: null });
    expect((await get('01.11.11', { scheme: 'cpa', legalDate: '2026-01-01' })).code).toMatchObject({ level: 'subcategory', parentCode: '01.11.1', selfExplanatoryText: 'Durum wheat', catalogVersion: '2.1' });
  });

  it('makes approved editions, their codes and the audit log immutable in the database', async () => {
    const fails = async (sql: string, params: unknown[] = []) => expect(h.deps.pool.query(sql, params)).rejects.toThrow(/append-only|sealed|immutable/);
    await fails(`update classification.catalog_edition set legal_to = '2030-01-01' where id = $1`, [cn2022.id]);
    await fails(`delete from classification.catalog_edition where id = $1`, [cn2022.id]);
    await fails(`update classification.catalog_code set self_text = 'x' where edition_id = $1 and code = '01'`, [cn2022.id]);
    await fails(`delete from classification.catalog_code where edition_id = $1`, [cn2022.id]);
    await fails(`update classification.audit_entry set outcome = 'ok'`);
    await fails(`delete from classification.audit_entry`);
    await fails(`truncate classification.catalog_code`);
  });

  it('refuses invalid files before anything is stored, and audits the refusal', async () => {
    const before = (await w.deps.catalogs.list()).length;
    const cn = dataFile('CN2022.csv').toString('utf8');
    const cases: [Uint8Array, string][] = [
      [dataFile('CN2021.csv'), 'unsupported_layout'],
      [Buffer.from(cn.replace(/^02,.*\r?\n/m, '')), 'missing_parent'],
      [Buffer.from(cn.replace(/^(0101,.*\r?\n)/m, '$1$1')), 'duplicate_code'],
      [Buffer.from(cn.replace(/^01012100,/m, '0101210,')), 'invalid_code'],
      [Buffer.from(cn.replace(/^01012100,Pure-bred breeding horses,010121000080/m, '01012100,Pure-bred breeding horses,010121000081')), 'invalid_concept_id'],
      [Buffer.from(cn.split(/\r?\n/).filter((l) => !/^\d{8},/.test(l)).join('\n')), 'missing_level'],
      [Buffer.from([0xef, 0xbb, 0xbf, 0xff, 0xfe]), 'invalid_encoding'],
      [Buffer.from(`${cn.slice(0, 200)}"unterminated`), 'invalid_csv'],
    ];
    for (const [bytes, issue] of cases) {
      const p = importCatalog(w.deps, { scheme: 'cn', edition: '2022', fileName: 'x.csv', bytes, legalFrom: '2022-01-01', legalTo: '2023-01-01', act: 'act', sourceUrl: 'https://example.eu/cn', operator: 'alice' });
      await expect(p).rejects.toMatchObject({ reason: 'invalid_catalog_file' });
      const entry = (await audit('catalog.import'))[0]!;
      expect(entry).toMatchObject({ outcome: 'refused', reason: 'invalid_catalog_file' });
      expect((entry.detail as { issues: { error: string }[] }).issues.map((i) => i.error), issue).toContain(issue);
    }
    const bad = { scheme: 'cn', edition: '2022', fileName: 'x.csv', bytes: dataFile('CN2022.csv'), legalFrom: '2022-01-01', act: 'act', sourceUrl: 'https://example.eu/cn', operator: 'alice' };
    for (const input of [{ ...bad, legalFrom: '2021-01-01' }, { ...bad, legalFrom: 'soon' }, { ...bad, edition: '2019' }, { ...bad, scheme: 'hs' }, { ...bad, legalTo: '2021-12-31' }, { ...bad, sourceUrl: 'ftp://x' }]) {
      expect(await refusal(importCatalog(w.deps, input))).toBe('invalid_import');
    }
    expect(await refusal(importCatalog(w.deps, { ...bad, operator: 'nobody' }))).toBe('unknown_operator');
    expect((await w.deps.catalogs.list()).length).toBe(before);
  });

  it('refuses an approved edition whose legal interval overlaps another approved edition of the scheme', async () => {
    const overlapping = await importCatalog(w.deps, { scheme: 'cn', edition: '2023', fileName: 'CN2022.csv', bytes: Buffer.from(dataFile('CN2022.csv').toString('utf8').replace('CN 2022,', 'CN 2023,')), legalFrom: '2023-01-01', legalTo: '2024-01-01', act: 'act', sourceUrl: 'https://example.eu/cn', operator: 'alice' });
    expect(overlapping.status).toBe('under_review');
    const cpaOverlap = await importCatalog(w.deps, { scheme: 'cpa', edition: '2.2', fileName: 'CPA21.csv', bytes: Buffer.from(dataFile('CPA21.csv').toString('utf8').replace('CPA 2.1,', 'CPA 2.2,')), legalFrom: '2025-01-01', act: 'act', sourceUrl: 'https://example.eu/cpa', operator: 'alice' });
    expect(await refusal(w.approve(cpaOverlap.id, 'bob'))).toBe('legal_interval_overlap');
  });
});
