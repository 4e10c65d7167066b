import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClassificationService, type ResolveTaxClassRequest, type ResolveTaxClassResponse } from '@vat/gen/vat/classification/v1/classification_service_pb';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import { importCoverage, publishCoverage } from '../src/admin/coverage';
import type { ClassificationDeps } from '../src/context';
import { refusal, Workflow } from './support';

const backends = await requireBackends(['postgres']);

type Rule = Record<string, unknown>;
const rule = (id: string, over: Rule): Rule => ({
  rule_id: id,
  jurisdiction: 'DE',
  scheme: 'cn',
  catalog_version: '2022',
  code: '02',
  coverage: 'full',
  legal_from: '2022-01-01',
  legal_to: '2023-01-01',
  tax_class_id: 'food',
  supply_kind: 'goods',
  status: 'approved',
  legal_reference: 'UStG § 12(2) Nr. 1, Anlage 2 Nr. 2',
  ...over,
});

/** Rules at every level and of every status the lookup order must handle. */
const RULES: Rule[] = [
  rule('DE-CN-02-food', {}),
  rule('DE-CN-02011000-standard', { code: '02011000', tax_class_id: 'standard', legal_reference: 'illustrative exact rule' }),
  rule('FR-CN-0203-ex', { jurisdiction: 'FR', code: '0203', coverage: 'ex', status: 'review_only', legal_reference: 'CGI art. 278-0 bis (ex 0203)' }),
  rule('EU-CN-04-food', { jurisdiction: 'EU', code: '04', legal_reference: 'Directive 2006/112/EC Annex III (1)' }),
  rule('AT-CN-0202-food', { jurisdiction: 'AT', code: '0202' }),
  rule('AT-CN-0202-standard', { jurisdiction: 'AT', code: '0202', tax_class_id: 'standard' }),
  rule('ES-CN-0201-withdrawn', { jurisdiction: 'ES', code: '0201', status: 'withdrawn' }),
  rule('EU-CN-02-food', { jurisdiction: 'EU', code: '02' }),
  rule('IT-CN-0406-review', { jurisdiction: 'IT', code: '0406', status: 'review_only' }),
  rule('DE-CPA-62.01-services', { scheme: 'cpa', catalog_version: '2.1', code: '62.01', tax_class_id: 'standard', supply_kind: 'services', legal_from: '2022-01-01', legal_to: null, legal_reference: 'UStG § 12(1)' }),
];

const manifest = (rules: Rule[]) => Buffer.from(JSON.stringify({ format: 'classification_coverage_v1', rules }));

describe.skipIf(!backends.ok)('coverage manifest and tax-class resolution (PostgreSQL)', () => {
  let h: ServiceHarness<ClassificationDeps>;
  let w: Workflow;
  let resolve: (r: Partial<ResolveTaxClassRequest>) => Promise<ResolveTaxClassResponse>;
  let published: Awaited<ReturnType<typeof publishCoverage>>;

  const publish = (id: string, operator = 'bob') => {
    w.nextStep();
    return publishCoverage(w.deps, { id, operator, totp: w.code(operator) });
  };

  beforeAll(async () => {
    h = await startServiceHarness<ClassificationDeps>('classification');
    const client = h.client(ClassificationService);
    resolve = (r) => client.resolveTaxClass({ scheme: 'cn', exactCode: '02011000', catalogVersion: '2022', jurisdiction: 'DE', legalDate: '2022-06-01', ...r });
    w = new Workflow(h.deps.pool);
    await w.enrol('alice', 'bob');
    await w.provision('cn2022');
    await w.provision('cpa21');
  });
  afterAll(async () => h?.close());

  it('stays needs_review (coverage_manifest_unpublished) before a manifest is published, even while one is under review', async () => {
    const candidate = await importCoverage(w.deps, { fileName: 'coverage.json', bytes: manifest(RULES), operator: 'alice' });
    expect(candidate).toMatchObject({ name: 'classification_coverage_v1', version: 1, status: 'under_review', rule_count: RULES.length });
    expect(await resolve({})).toMatchObject({ status: 'needs_review', authoritativeForMapping: false, reasons: ['coverage_manifest_unpublished'] });
    expect(await refusal(publish(candidate.id, 'alice'))).toBe('four_eyes_violation');
    published = await publish(candidate.id);
    expect(published).toMatchObject({ status: 'published', published_by: 'bob', version: 1 });
  });

  it('resolves the jurisdiction\'s exact rule first', async () => {
    expect(await resolve({})).toMatchObject({
      status: 'resolved',
      authoritativeForMapping: true,
      notFinalTaxTreatment: true,
      taxClassId: 'standard',
      supplyKind: 'goods',
      ruleId: 'DE-CN-02011000-standard',
      matchedBy: 'exact',
      matchedCode: '02011000',
      coverageManifestVersion: 1,
      coverageManifestDigest: published.digest,
      catalogVersion: '2022',
      catalogDigest: expect.stringMatching(/^sha256:/),
      reasons: [],
    });
  });

  it('resolves through the nearest catalog ancestor: Germany\'s chapter 02 rule for 0201 30 00', async () => {
    expect(await resolve({ exactCode: '0201 30 00' })).toMatchObject({ status: 'resolved', taxClassId: 'food', supplyKind: 'goods', ruleId: 'DE-CN-02-food', matchedBy: 'ancestor', matchedCode: '02', matchedJurisdiction: 'DE' });
    expect(await resolve({ exactCode: '02012020' })).toMatchObject({ status: 'resolved', ruleId: 'DE-CN-02-food', matchedBy: 'ancestor' });
  });

  it('falls back to the EU rule on the exact code or an ancestor only when the jurisdiction has none', async () => {
    expect(await resolve({ jurisdiction: 'IT', exactCode: '04011010' })).toMatchObject({ status: 'resolved', ruleId: 'EU-CN-04-food', matchedBy: 'eu_ancestor', matchedJurisdiction: 'EU' });
    expect(await resolve({ jurisdiction: 'PL', exactCode: '02011000' })).toMatchObject({ status: 'resolved', ruleId: 'EU-CN-02-food', matchedBy: 'eu_ancestor' });
  });

  it('gives needs_review for a partial (ex) review-only rule, a review-only rule, conflicting rules and a withdrawn rule', async () => {
    expect(await resolve({ jurisdiction: 'FR', exactCode: '02031110' })).toMatchObject({ status: 'needs_review', authoritativeForMapping: false, reasons: ['partial_rule_review_only'], ruleId: 'FR-CN-0203-ex' });
    expect(await resolve({ jurisdiction: 'IT', exactCode: '04061030' })).toMatchObject({ status: 'needs_review', reasons: ['rule_review_only'], ruleId: 'IT-CN-0406-review' });
    expect(await resolve({ jurisdiction: 'AT', exactCode: '02021000' })).toMatchObject({ status: 'needs_review', reasons: ['conflicting_rules'] });
    // A withdrawn nearer rule is never skipped for the broader EU rule.
    expect(await resolve({ jurisdiction: 'ES', exactCode: '02011000' })).toMatchObject({ status: 'needs_review', reasons: ['rule_withdrawn'], ruleId: 'ES-CN-0201-withdrawn' });
    const r = await resolve({ jurisdiction: 'FR', exactCode: '02031110' });
    expect(r.taxClassId).toBeUndefined();
    expect(r.supplyKind).toBeUndefined();
  });

  it('gives needs_review for unmapped codes, unavailable catalogs, codes outside the catalog and non-EU jurisdictions', async () => {
    expect(await resolve({ exactCode: '84713000' })).toMatchObject({ status: 'needs_review', reasons: ['unmapped'] });
    expect(await resolve({ catalogVersion: '2023', legalDate: '2023-06-01' })).toMatchObject({ status: 'needs_review', reasons: ['catalog_unavailable'] });
    expect(await resolve({ legalDate: '2023-06-01' })).toMatchObject({ status: 'needs_review', reasons: ['catalog_unavailable'] });
    expect(await resolve({ exactCode: '02019999' })).toMatchObject({ status: 'needs_review', reasons: ['code_not_in_catalog'] });
    expect(await resolve({ jurisdiction: 'US' })).toMatchObject({ status: 'needs_review', reasons: ['jurisdiction_outside_eu'] });
    expect(await resolve({ exactCode: '02011000', legalDate: '2022-06-01', catalogVersion: '2022', jurisdiction: 'DE' })).toMatchObject({ status: 'resolved' });
  });

  it('resolves a CPA service code with the rule\'s own supply kind', async () => {
    expect(await resolve({ scheme: 'cpa', exactCode: '62.01.11', catalogVersion: '2.1', legalDate: '2026-03-01' })).toMatchObject({ status: 'resolved', supplyKind: 'services', taxClassId: 'standard', matchedCode: '62.01', matchedBy: 'ancestor' });
    expect(await resolve({ scheme: 'cpa', exactCode: '62.01.11', catalogVersion: '2.1', legalDate: '2021-03-01' })).toMatchObject({ status: 'needs_review', reasons: ['unmapped'] });
  });

  it('keeps serving the published version while a new one is under review, then serves the new version', async () => {
    // A live assignment: publishing queues its product for reprocessing.
    const client = h.client(ClassificationService);
    await client.submitAssignment({ integrationId: 5n, scheme: 'cpa', exactCode: '62.01.11', productReference: 'sku-app', requestedValidFrom: new Date().toISOString().slice(0, 10) }, h.as({ accountId: 77n }));
    await h.deps.pool.query(`update classification.reprocess_job set status = 'done'`);
    const next = await importCoverage(w.deps, { fileName: 'coverage-v2.json', bytes: manifest([rule('DE-CN-02-standard', { tax_class_id: 'standard' })]), operator: 'alice' });
    expect(next.version).toBe(2);
    expect(await resolve({ exactCode: '02013000' })).toMatchObject({ taxClassId: 'food', coverageManifestVersion: 1 });
    expect(await publish(next.id)).toMatchObject({ status: 'published', reprocessing_jobs: 1 });
    expect((await h.deps.pool.query(`select account_id::int, product_reference from classification.reprocess_job where status = 'pending' and reason = 'coverage_published'`)).rows).toEqual([{ account_id: 77, product_reference: 'sku-app' }]);
    expect(await resolve({ exactCode: '02013000' })).toMatchObject({ status: 'resolved', taxClassId: 'standard', coverageManifestVersion: 2, ruleId: 'DE-CN-02-standard' });
    expect(await resolve({ jurisdiction: 'IT', exactCode: '04011010' })).toMatchObject({ status: 'needs_review', reasons: ['unmapped'] });
  });

  it('makes published manifests and their rules immutable in the database', async () => {
    await expect(h.deps.pool.query(`update classification.coverage_manifest set digest = 'x' where id = $1`, [published.id])).rejects.toThrow(/sealed/);
    await expect(h.deps.pool.query(`delete from classification.coverage_rule where manifest_id = $1`, [published.id])).rejects.toThrow(/immutable/);
  });

  it('refuses invalid manifests and audits each refusal', async () => {
    const cases: [Rule[] | unknown, string][] = [
      [[rule('x', { coverage: 'ex', status: 'approved' })], 'partial_rule_approved'],
      [[rule('x', { tax_class_id: 'caviar' })], 'unknown_tax_class'],
      [[rule('x', { supply_kind: undefined })], 'invalid_supply_kind'],
      [[rule('x', { extra: 1 })], 'unknown_field'],
      [[rule('x', {}), rule('x', {})], 'duplicate_rule_id'],
      [[rule('x', { jurisdiction: 'US' })], 'invalid_jurisdiction'],
      [[rule('x', { code: '0201 10 00' })], 'invalid_code'],
      [[rule('x', { legal_to: '2021-01-01' })], 'invalid_legal_to'],
    ];
    for (const [rules, error] of cases) {
      const p = importCoverage(w.deps, { fileName: 'bad.json', bytes: manifest(rules as Rule[]), operator: 'alice' });
      await expect(p).rejects.toMatchObject({ reason: 'invalid_manifest' });
      const entry = (await w.deps.operators.auditLog({ action: 'coverage.import', limit: 1 }))[0]!;
      expect((entry.detail as { issues: { error: string }[] }).issues.map((i) => i.error), error).toContain(error);
    }
    expect(await refusal(importCoverage(w.deps, { fileName: 'bad.json', bytes: manifest([rule('x', { code: '02019999' })]), operator: 'alice' }))).toBe('manifest_not_covered_by_catalog');
    expect(await refusal(importCoverage(w.deps, { fileName: 'bad.json', bytes: manifest([rule('x', { catalog_version: '2021' })]), operator: 'alice' }))).toBe('manifest_not_covered_by_catalog');
    expect(await refusal(importCoverage(w.deps, { fileName: 'bad.json', bytes: manifest([rule('x', { legal_to: '2024-01-01' })]), operator: 'alice' }))).toBe('manifest_not_covered_by_catalog');
    expect(await refusal(importCoverage(w.deps, { fileName: 'bad.json', bytes: Buffer.from('{"format":"classification_coverage_v1"'), operator: 'alice' }))).toBe('invalid_manifest');
  });
});
