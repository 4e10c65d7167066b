import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../../test/support/env';
import { startHarness, type Harness } from '../../test/support/harness';
import { Workflow } from '../../services/classification/test/support';

const backends = await requireBackends(['postgres']);

const today = () => new Date().toISOString().slice(0, 10);
const CPA_BODY = () => ({ scheme: 'cpa', exact_code: '62.01.11', product_reference: 'sku-app', variant_reference: null, requested_valid_from: today() });
const CN_BODY = { scheme: 'cn', exact_code: '0201 30 00', product_reference: 'sku-beef', requested_valid_from: '2022-03-01', attestation: { statement: 'Product sold since March 2022 under this code.', attested_by: 'Jane Doe, tax manager' } };

type Res = { statusCode: number; body: string; json(): any };

/** The assignment REST contract, in whichever run mode the harness was started. */
function assignmentSuite(mode: string, opts: { embedded: boolean; cn: boolean }) {
  describe.skipIf(!backends.ok)(`product-code assignments over REST (${mode})`, () => {
    let h: Harness;
    let pool: pg.Pool;
    let writer: string;
    let integration: string;
    let otherIntegration: string;
    let otherKey: string;
    const base = (id = integration) => `/v1/integrations/${id}/product-code-assignments`;
    const post = (body: unknown, key = writer, id = integration): Promise<Res> => h.inject({ method: 'POST', url: base(id), headers: { 'x-api-key': key }, payload: body as object });
    const get = (path: string, key = writer): Promise<Res> => h.inject({ method: 'GET', url: path, headers: { 'x-api-key': key } });
    const act = (id: string, kind: 'validate' | 'archive', key = writer): Promise<Res> => h.inject({ method: 'POST', url: `${base()}/${id}/${kind}`, headers: { 'x-api-key': key } });
    const fails = (res: Res, status: number, code: string) => {
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toEqual({ error: code, detail: expect.any(String) });
    };
    const revisions = async () => Number((await pool.query('select count(*)::int as n from classification.assignment_revision')).rows[0].n);

    beforeAll(async () => {
      h = await startHarness({ embedded: opts.embedded });
      pool = new pg.Pool({ connectionString: h.databaseUrl, max: 2 });
      const w = new Workflow(pool);
      await w.enrol('alice', 'bob');
      await w.provision('cpa21');
      if (opts.cn) await w.provision('cn2022');
      writer = (await h.key('assign-acct', 'classification-write')).key;
      integration = (await h.built.gateway!.keys.createIntegration('assign-acct', 'shop')).id;
      otherKey = (await h.key('assign-other', 'full')).key;
      otherIntegration = (await h.built.gateway!.keys.createIntegration('assign-other', 'other shop')).id;
    });
    afterAll(async () => {
      await pool?.end();
      await h?.close();
    });

    it('creates a head revision bound to the approved edition (201) and answers an identical retry with it (200)', async () => {
      const first = await post(CPA_BODY());
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json()).toMatchObject({
        revision: 1,
        head: true,
        state: 'submitted',
        integration_id: Number(integration),
        scheme: 'cpa',
        exact_code: '62.01.11',
        display_code: '62.01.11',
        product_reference: 'sku-app',
        variant_reference: null,
        valid_from: today(),
        valid_to: null,
        valid_to_source: 'open',
        catalog_version: '2.1',
        catalog_digest: expect.stringMatching(/^sha256:/),
        backdated: false,
        attestation: null,
        impact_review: null,
      });
      const retry = await post(CPA_BODY());
      expect(retry.statusCode).toBe(200);
      expect(retry.json()).toEqual(first.json());
    });

    it('creates a new revision for a changed request, and again for the older request once it is no longer the head', async () => {
      const changed = await post({ ...CPA_BODY(), exact_code: '62.01.12' });
      expect(changed.statusCode).toBe(201);
      expect(changed.json()).toMatchObject({ revision: 2, exact_code: '62.01.12' });
      const older = await post(CPA_BODY());
      expect(older.statusCode).toBe(201);
      expect(older.json()).toMatchObject({ revision: 3, exact_code: '62.01.11', assignment_id: changed.json().assignment_id });
    });

    it('validates and archives through successor revisions, keeps the history, and enqueues reprocessing per product', async () => {
      const head = (await post(CPA_BODY())).json();
      const validated = await act(head.assignment_id, 'validate');
      expect(validated.statusCode, validated.body).toBe(200);
      expect(validated.json()).toMatchObject({ revision: head.revision + 1, state: 'validated', exact_code: '62.01.11' });
      fails(await act(head.assignment_id, 'validate'), 422, 'assignment_already_validated');
      // The identical request is no longer the head: a new revision.
      expect((await post(CPA_BODY())).json()).toMatchObject({ revision: head.revision + 2, state: 'submitted' });
      const archived = await act(head.assignment_id, 'archive');
      expect(archived.json()).toMatchObject({ revision: head.revision + 3, state: 'archived' });
      fails(await act(head.assignment_id, 'archive'), 422, 'assignment_archived');
      fails(await act(head.assignment_id, 'validate'), 422, 'assignment_archived');
      const one = await get(`${base()}/${head.assignment_id}`);
      expect(one.statusCode).toBe(200);
      expect(one.json()).toMatchObject({ state: 'archived', head: true });
      expect(one.json().revisions.map((r: { revision: number; state: string; head: boolean }) => `${r.revision}:${r.state}:${r.head}`)).toEqual(['1:submitted:false', '2:submitted:false', '3:submitted:false', '4:validated:false', '5:submitted:false', '6:archived:true']);
      const jobs = (await pool.query(`select product_reference, status from classification.reprocess_job where integration_id = $1`, [integration])).rows;
      expect(jobs.map((j: { product_reference: string }) => j.product_reference)).toContain('sku-app');
      expect(jobs.every((j: { status: string }) => ['pending', 'running', 'done'].includes(j.status))).toBe(true);
    });

    it('lists current heads with a cursor and filters', async () => {
      for (let i = 0; i < 5; i++) expect((await post({ ...CPA_BODY(), product_reference: `sku-list-${i}`, variant_reference: i % 2 ? 'blue' : null })).statusCode).toBe(201);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Res = await get(`${base()}?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.statusCode, page.body).toBe(200);
        expect(page.json().items.length).toBeLessThanOrEqual(2);
        seen.push(...page.json().items.map((r: { product_reference: string }) => r.product_reference));
        cursor = page.json().next_cursor;
      } while (cursor);
      expect(seen).toEqual(['sku-app', 'sku-list-0', 'sku-list-1', 'sku-list-2', 'sku-list-3', 'sku-list-4']);
      expect((await get(`${base()}?state=archived`)).json().items.map((r: { product_reference: string }) => r.product_reference)).toEqual(['sku-app']);
      expect((await get(`${base()}?product_reference=sku-list-3`)).json().items).toEqual([expect.objectContaining({ variant_reference: 'blue', head: true })]);
      fails(await get(`${base()}?cursor=nonsense`), 400, 'invalid_cursor');
      fails(await get(`${base()}?limit=0`), 400, 'invalid_limit');
      fails(await get(`${base()}?state=gone`), 400, 'invalid_state');
      // the filter is state (as the README lists it); status is the correction-review list's, not this one's
      for (const q of ['status=open', 'status=archived', 'states=archived', 'State=archived']) fails(await get(`${base()}?${q}`), 400, 'unknown_parameter');
      fails(await get(`${base()}?colour=red`), 400, 'unknown_parameter');
    });

    it('refuses bad input with a clear 400 and stores nothing', async () => {
      const before = await revisions();
      const cases: [unknown, string][] = [
        [{ ...CPA_BODY(), scheme: 'hs' }, 'invalid_scheme'],
        [{ ...CPA_BODY(), exact_code: 123 }, 'invalid_code'],
        [{ ...CPA_BODY(), exact_code: '62.01' }, 'invalid_code'],
        [{ ...CPA_BODY(), exact_code: '62.01.11.1' }, 'invalid_code'],
        [{ ...CPA_BODY(), product_reference: 'x'.repeat(201) }, 'invalid_product_reference'],
        [{ ...CPA_BODY(), product_reference: '' }, 'invalid_product_reference'],
        [{ ...CPA_BODY(), product_reference: 'a\u0000b' }, 'invalid_product_reference'],
        // C1 control characters (U+0080–U+009F) like C0 and DEL, in every string field
        [{ ...CPA_BODY(), product_reference: 'a\u0085b' }, 'invalid_product_reference'],
        [{ ...CPA_BODY(), product_reference: 'a\u009bb' }, 'invalid_product_reference'],
        [{ ...CPA_BODY(), variant_reference: 'blue\u0085' }, 'invalid_variant_reference'],
        [{ ...CPA_BODY(), variant_reference: '\u009b' }, 'invalid_variant_reference'],
        [{ ...CPA_BODY(), variant_reference: 'a\u007fb' }, 'invalid_variant_reference'],
        [{ ...CN_BODY, attestation: { statement: 'Sold since 2022.\u0085', attested_by: 'Jane' } }, 'invalid_attestation'],
        [{ ...CN_BODY, attestation: { statement: 'Sold since 2022.', attested_by: 'Jane\u009b' } }, 'invalid_attestation'],
        [{ ...CN_BODY, attestation: { statement: 'Sold\u0000 since 2022.', attested_by: 'Jane' } }, 'invalid_attestation'],
        [{ ...CPA_BODY(), variant_reference: 7 }, 'invalid_variant_reference'],
        [{ ...CPA_BODY(), requested_valid_from: '2026-02-30' }, 'invalid_requested_valid_from'],
        [{ ...CPA_BODY(), requested_valid_to: '2020-01-01' }, 'invalid_requested_valid_to'],
        [{ ...CPA_BODY(), attestation: 'yes' }, 'invalid_attestation'],
        [{ ...CPA_BODY(), attestation: { statement: '', attested_by: 'x' } }, 'invalid_attestation'],
        [{ ...CPA_BODY(), tax_class_id: 'food' }, 'unknown_field'],
        [{ ...CPA_BODY(), scheme: undefined }, 'invalid_scheme'],
        [[CPA_BODY()], 'invalid_request'],
      ];
      for (const [body, code] of cases) fails(await post(body), 400, code);
      fails(await h.inject({ method: 'POST', url: base(), headers: { 'x-api-key': writer, 'content-type': 'application/json' }, payload: '{"scheme":' }), 400, 'invalid_json');
      fails(await post({ ...CPA_BODY(), requested_valid_from: '2020-01-01' }), 422, 'attestation_required');
      expect(await revisions()).toBe(before);
    });

    it('requires classification-write or full, and keeps other accounts\' integrations and assignments invisible', async () => {
      fails(await h.inject({ method: 'POST', url: base(), payload: CPA_BODY() }), 401, 'missing_api_key');
      for (const scope of ['read-only', 'calculate-only', 'classification-resolve']) fails(await post(CPA_BODY(), (await h.key('assign-acct', scope)).key), 403, 'insufficient_scope');
      expect((await post({ ...CPA_BODY(), product_reference: 'sku-full' }, (await h.key('assign-acct', 'full')).key)).statusCode).toBe(201);
      const before = await revisions();
      fails(await post(CPA_BODY(), otherKey), 404, 'integration_not_found');
      fails(await post(CPA_BODY(), writer, otherIntegration), 404, 'integration_not_found');
      fails(await post(CPA_BODY(), writer, 'abc'), 404, 'integration_not_found');
      fails(await post(CPA_BODY(), writer, '99999999'), 404, 'integration_not_found');
      const mine = (await get(base())).json().items[0].assignment_id as string;
      const theirs = await h.inject({ method: 'GET', url: `/v1/integrations/${otherIntegration}/product-code-assignments/${mine}`, headers: { 'x-api-key': otherKey } });
      fails(theirs, 404, 'assignment_not_found');
      fails(await h.inject({ method: 'POST', url: `/v1/integrations/${otherIntegration}/product-code-assignments/${mine}/archive`, headers: { 'x-api-key': otherKey } }), 404, 'assignment_not_found');
      fails(await get(`${base()}/not-a-uuid`), 404, 'assignment_not_found');
      expect((await get(base(otherIntegration), otherKey)).json().items).toEqual([]);
      expect(await revisions()).toBe(before);
    });

    if (opts.cn) it('binds a backdated CN assignment to its edition\'s end, with attestation and an impact review', async () => {
      fails(await post({ ...CN_BODY, attestation: undefined }), 422, 'attestation_required');
      const res = await post(CN_BODY);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ exact_code: '02013000', display_code: '0201 30 00', catalog_version: '2022', valid_from: '2022-03-01', valid_to: '2023-01-01', valid_to_source: 'catalog_edition_end', backdated: true, impact_review: 'open', attestation: CN_BODY.attestation });
      expect((await post({ ...CN_BODY, product_reference: 'sku-short', requested_valid_to: '2022-07-01' })).json()).toMatchObject({ valid_to: '2022-07-01', valid_to_source: 'request' });
      fails(await post({ ...CN_BODY, requested_valid_to: '2023-06-01' }), 422, 'assignment_outside_catalog_interval');
      fails(await post({ ...CN_BODY, exact_code: '02019999' }), 422, 'code_not_found');
      fails(await post({ ...CN_BODY, exact_code: '02' }), 400, 'invalid_code');
      fails(await post({ ...CN_BODY, requested_valid_from: '2024-03-01' }), 422, 'catalog_unavailable');
    });

    // The limit test fills 10,000 rows; once, on PostgreSQL.
    if (!opts.embedded) it('refuses a new revision once the account keeps the retained revision limit (422), validation and archival included', async () => {
      const accountId = (await h.key('assign-limit', 'classification-write')).accountId;
      const key = (await h.key('assign-limit', 'classification-write')).key;
      const limitIntegration = (await h.built.gateway!.keys.createIntegration('assign-limit', 'limit shop')).id;
      const first = await post({ ...CPA_BODY(), product_reference: 'sku-limit' }, key, limitIntegration);
      expect(first.statusCode).toBe(201);
      // Fill the account up to the limit with stored revisions (one multi-row statement).
      await pool.query(
        `insert into classification.assignment_revision (id, assignment_id, revision, account_id, integration_id, product_reference, variant_reference, state, scheme, exact_code, display_code, valid_from, valid_to, valid_to_source, catalog_version, catalog_edition_id, catalog_digest, request_digest, backdated, attestation, impact_review, api_key_id, created_at)
         select gen_random_uuid(), gen_random_uuid(), 1, $1, $2, 'filler-' || g, null, 'submitted', 'cpa', '62.01.11', '62.01.11', current_date, null, 'open', '2.1', 1, 'sha256:x', 'x', false, null, null, 1, now()
           from generate_series(1, 9999) g`,
        [accountId, limitIntegration],
      );
      fails(await post({ ...CPA_BODY(), product_reference: 'sku-over' }, key, limitIntegration), 422, 'assignment_revision_limit_reached');
      fails(await h.inject({ method: 'POST', url: `/v1/integrations/${limitIntegration}/product-code-assignments/${first.json().assignment_id}/validate`, headers: { 'x-api-key': key } }), 422, 'assignment_revision_limit_reached');
      // An identical retry of the head stores nothing and is still answered.
      expect((await post({ ...CPA_BODY(), product_reference: 'sku-limit' }, key, limitIntegration)).statusCode).toBe(200);
    });
  });
}

assignmentSuite('PostgreSQL', { embedded: false, cn: true });
assignmentSuite('embedded PGlite', { embedded: true, cn: false });
