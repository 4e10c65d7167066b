/**
 * Valid requests to every operation, in the order an account would make them: reference data,
 * calculations, sources, registrations, supply events, the Union OSS quarter from preview to lock,
 * filed and downloads, the next quarter with its corrections, IOSS, thresholds, VAT numbers,
 * classification (codes, resolution, assignments, correction reviews) and the dashboard session.
 * Every request goes through Prism; waits for the service's projections ask the service directly.
 */
import { servicesSale } from '../support/supply-fixtures';
import type { Provisioned } from './provision';
import type { Answer, ProxyClient, Request } from './proxy-client';

export type ScenarioContext = { client: ProxyClient; service: string; p: Provisioned };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A classified B2C EUR supply of the German merchant (MSI DE), 2026 dates. */
const event = servicesSale;

export async function runScenario(ctx: ScenarioContext): Promise<void> {
  const { client, p } = ctx;
  const key = { 'x-api-key': p.keys.full };
  const send = (r: Omit<Request, 'kind'>): Promise<Answer> => client.send({ kind: 'valid', ...r });
  const get = (label: string, path: string, query?: Record<string, string>, expect?: number[]) => send({ label, method: 'GET', path, ...(query ? { query } : {}), headers: key, ...(expect ? { expect } : {}) });
  const post = (label: string, path: string, body?: unknown, query?: Record<string, string>, expect?: number[]) =>
    send({ label, method: 'POST', path, ...(query ? { query } : {}), headers: key, ...(body !== undefined ? { body } : {}), ...(expect ? { expect } : {}) });
  /** Asks the service directly (waits are not requests of the check). */
  const direct = async (path: string): Promise<any> => (await fetch(`${ctx.service}${path}`, { headers: key })).json();
  /** Waits until `found` finds something in what the service answers at `path`. */
  const until = async <T>(what: string, path: string, found: (json: any) => T | undefined): Promise<T> => {
    for (let i = 0; i < 300; i++) {
      const hit = found(await direct(path));
      if (hit !== undefined && hit !== false) return hit;
      await sleep(100);
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const counted = (period: string, n: number) =>
    until(`the ${period} preview to count ${n} events`, `/v1/reports/oss-quarterly-summary?period=${period}`, (j: { total_source_event_count?: number }) => j.total_source_event_count === n || undefined);
  const classificationAnswers = p.classification ? undefined : [404, 422, 503];

  // Reference data (no key).
  await send({ label: 'liveness', method: 'GET', path: '/health' });
  await send({ label: 'readiness', method: 'GET', path: '/ready' });
  await send({ label: 'tax classes with the German preview rate', method: 'GET', path: '/v1/tax-classes', query: { country: 'DE', at: '2026-03-01' } });
  await send({ label: 'one tax class with its rates', method: 'GET', path: '/v1/tax-classes/standard', query: { country: 'DE' } });
  await send({ label: 'rate lookup with history', method: 'GET', path: '/v1/vat/rates', query: { country: 'DE', tax_class_id: 'standard', history: 'true' } });
  await send({ label: 'SME eligibility', method: 'POST', path: '/v1/vat/sme-eligibility', body: { country: 'DE', annual_turnover_nac: 20000, currency: 'EUR' } });
  await send({ label: 'an exact CPA code', method: 'GET', path: '/v1/classification-codes/cpa/62.01', query: { catalog_version: '2.1' }, ...(classificationAnswers ? { expect: classificationAnswers } : {}) });

  // Calculations and history.
  const calc = await send({
    label: 'v1 calculation',
    method: 'POST',
    path: '/v1/vat/calculate',
    headers: { ...key, 'idempotency-key': 'prism-1', 'x-source-id': 'shop/eu' },
    body: { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 11900, price_includes_vat: true, transaction_date: '2026-03-01' },
  });
  const v2 = await send({
    label: 'v2 governed calculation',
    method: 'POST',
    path: '/v2/vat/calculate',
    headers: { ...key, 'idempotency-key': 'prism-v2-1' },
    body: {
      country: 'DE', currency: 'EUR', amount_minor: 11900, price_includes_vat: true, transaction_date: '2026-03-01',
      ...(p.classification ? { classification: { scheme: 'cpa', code: '62.01', catalog_version: '2.1' } } : { tax_class_id: 'standard' }),
      treatment_context: { customer_type: 'b2c', supplier_establishment_country: 'DE', dispatch_country: 'DE', destination_country: 'DE' },
    },
  });
  await get('decisions', '/v2/decisions', { limit: '10' });
  await get('one decision', `/v2/decisions/${v2.json?.decision_id ?? 'missing'}`);
  await get('transactions', '/v1/transactions', { limit: '10' });
  await get('one transaction', `/v1/transactions/${calc.json?.calculation_id ?? 'missing'}`);
  await post('replay of a transaction', `/v1/transactions/${calc.json?.calculation_id ?? 'missing'}/replay`);
  await get('transactions export (CSV)', '/v1/transactions/export', { from: '2026-01-01', to: '2026-12-31' });
  await get('transactions aggregated by country', '/v1/transactions/aggregated', { group_by: 'country' });

  // Source profiles.
  const source = await post('a source profile', '/v1/sources', { source_key: 'shop/eu', display_name: 'EU shop', channel_type: 'owned_store', default_country: 'DE' });
  await send({ label: 'a source profile renamed', method: 'PATCH', path: `/v1/sources/${source.json?.id ?? 'missing'}`, headers: key, body: { display_name: 'EU web shop' } });
  await get('sources', '/v1/sources');
  await get('unknown source ids', '/v1/sources/unknown', { limit: '10' });

  // Registrations.
  await post('Union OSS registration (DE)', '/v1/tax-registrations', { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2021-07-01', status: 'active' });
  await post('IOSS registration (IE)', '/v1/tax-registrations', { scheme_type: 'ioss', member_state_identification: 'IE', vat_registration_number: 'IM3720000224', effective_from: '2021-07-01', status: 'active' });
  const nonUnion = await post('non-Union OSS registration', '/v1/tax-registrations', { scheme_type: 'non_union_oss', member_state_identification: 'DE', vat_registration_number: 'EU276000001', effective_from: '2024-01-01', status: 'active' });
  await send({ label: 'a registration ended', method: 'PATCH', path: `/v1/tax-registrations/${nonUnion.json?.id ?? 'missing'}`, headers: key, body: { status: 'ended', effective_to: '2025-12-31' } });
  await get('registrations', '/v1/tax-registrations');

  // 2026-Q1: 2a services, 2b and 2d goods, 2c services from an establishment in AT, a USD sale, a refund,
  // a B2B sale without VIES evidence (excluded), imported goods within and above EUR 150 (IOSS).
  const q1 = [
    event('q1-2a', '2026-02-10'),
    event('q1-2b', '2026-02-11', { supply_kind: 'goods', supplier_establishment_country: null, dispatch_country: 'DE', country_of_consumption: 'AT', net_amount_minor: 5000, vat_amount_minor: 1000 }),
    event('q1-2c', '2026-02-12', { supplier_establishment_country: 'AT', net_amount_minor: 2000, vat_amount_minor: 400 }),
    event('q1-2d', '2026-02-13', { supply_kind: 'goods', supplier_establishment_country: null, dispatch_country: 'AT', net_amount_minor: 3000, vat_amount_minor: 600 }),
    event('q1-usd', '2026-02-14', { currency: 'USD' }),
    event('q1-refund', '2026-03-02', { event_type: 'refund', original_event_id: 'q1-2a', net_amount_minor: -1000, vat_amount_minor: -200 }),
    event('q1-b2b', '2026-02-15', { customer_type: 'b2b' }),
    event('q1-imp', '2026-02-16', { supply_kind: 'imported_goods', supplier_establishment_country: null, intrinsic_value_eur_minor: 5000, third_country_origin: 'CN', excise_goods: false, net_amount_minor: 5000, vat_amount_minor: 1000 }),
    event('q1-imp-big', '2026-02-17', { supply_kind: 'imported_goods', supplier_establishment_country: null, intrinsic_value_eur_minor: 20000, third_country_origin: 'CN', excise_goods: false, net_amount_minor: 20000, vat_amount_minor: 4000 }),
    // Unclassified until a validated product-code assignment reclassifies it (after the lock: a correction review).
    event('q1-sku', '2026-02-18', { classification_status: 'needs_review', product_reference: 'sku-1', order_reference: 'order-sku-1', integration_id: p.integrationId }),
  ];
  await post('a batch of supply events', '/v1/supply-events', { events: q1 });
  const single = event('q1-single', '2026-03-03', { net_amount_minor: 500, vat_amount_minor: 100 });
  await post('one supply event', '/v1/supply-events', single);
  await post('the same supply event again (stored nothing)', '/v1/supply-events', single);
  const listed = await get('supply events', '/v1/supply-events', { from: '2026-01-01', to: '2026-12-31', limit: '5' });
  await get('one supply event', `/v1/supply-events/${listed.json?.items?.[0]?.id ?? 'missing'}`);
  await counted('2026-Q1', q1.length + 1);

  // The open quarter: previews, exports, the accountant report and the drill-downs.
  const Q1 = { period: '2026-Q1' };
  await get('quarterly summary', '/v1/reports/oss-quarterly-summary', Q1);
  await get('country breakdown', '/v1/reports/country-vat-breakdown', Q1);
  for (const format of ['csv', 'json', 'oss-return', 'bzst-csv']) await get(`summary export ${format}`, '/v1/reports/oss-quarterly-summary/export', { ...Q1, format });
  for (const format of ['csv', 'json']) await get(`breakdown export ${format}`, '/v1/reports/country-vat-breakdown/export', { ...Q1, format, export_version: '1' });
  await get('accountant report', '/v1/reports/oss-accountant-report', Q1);
  await get('accountant report (PDF)', '/v1/reports/oss-accountant-report', { ...Q1, format: 'pdf' });
  const page = await get('events of the quarter, first page', '/v1/reports/oss-quarterly-summary/events', { ...Q1, limit: '3' });
  await get('events of the quarter, next page', '/v1/reports/oss-quarterly-summary/events', { ...Q1, limit: '3', cursor: page.json?.next_cursor ?? 'missing' });
  await get('excluded events of the quarter', '/v1/reports/oss-quarterly-summary/events', { ...Q1, disposition: 'excluded', member_state: 'FR' });
  await get('IOSS month events', '/v1/reports/ioss-monthly/events', { month: '2026-02' });
  await get('filing-prep', '/v1/reports/filing-prep', Q1);
  await get('multi-jurisdiction', '/v1/reports/multi-jurisdiction', Q1);
  await get('filing calendar', '/v1/reports/filing-calendar', { from: '2025-10-01', to: '2026-11-01' });
  await get('locked quarters (none yet)', '/v1/reports/locked-return-periods/union-oss', Q1);

  // Lock, download every artifact, mark filed.
  const lock = await post('lock 2026-Q1', '/v1/reports/locked-return-periods/union-oss', undefined, Q1);
  for (const e of (lock.json?.exports ?? []) as { download_path: string; export_kind: string }[]) await get(`download ${e.export_kind}`, e.download_path);
  await post('mark 2026-Q1 filed', '/v1/reports/locked-return-periods/union-oss/filed', { submission_reference: 'BZSt-2026-Q1-1', filed_on: '2026-04-20', note: 'filed by the Prism check' }, Q1);
  await get('locked quarters with current_period', '/v1/reports/locked-return-periods/union-oss', Q1);
  await get('events the lock sealed', '/v1/reports/oss-quarterly-summary/events', Q1);
  await get('accountant report of the filed quarter', '/v1/reports/oss-accountant-report', Q1);
  await get('filing-prep of the filed quarter', '/v1/reports/filing-prep', Q1);

  // 2026-Q2: a late event of the locked quarter and a refund of a 2026-Q1 sale are corrections.
  await post('2026-Q2 events with corrections of 2026-Q1', '/v1/supply-events', {
    events: [
      event('q1-late', '2026-03-05', { net_amount_minor: 1500, vat_amount_minor: 300 }),
      event('q2-2a', '2026-05-10'),
      event('q2-refund', '2026-05-12', { event_type: 'refund', original_event_id: 'q1-2b', supply_kind: 'goods', supplier_establishment_country: null, dispatch_country: 'DE', country_of_consumption: 'AT', net_amount_minor: -5000, vat_amount_minor: -1000 }),
    ],
  });
  await counted('2026-Q2', 3);
  const Q2 = { period: '2026-Q2' };
  await get('quarterly summary with corrections', '/v1/reports/oss-quarterly-summary', Q2);
  await get('country breakdown with corrections', '/v1/reports/country-vat-breakdown', Q2);
  await get('summary export json with corrections', '/v1/reports/oss-quarterly-summary/export', { ...Q2, format: 'json' });
  await get('Annex III return with corrections', '/v1/reports/oss-quarterly-summary/export', { ...Q2, format: 'oss-return' });
  await get('accountant report with corrections', '/v1/reports/oss-accountant-report', Q2);
  await get('multi-jurisdiction with corrections', '/v1/reports/multi-jurisdiction', Q2);

  // Thresholds and notifications (the calendar announced the overdue periods).
  await get('threshold status', '/v1/compliance/threshold-status');
  await get('threshold series of 2026', '/v1/compliance/threshold-status/series', { year: '2026' });
  // The account's Article 59c evidence conflicts by design (a needs_review sale, establishments in DE and AT): 422.
  await post('OSS threshold check', '/v1/vat/threshold-check', { threshold_type: 'oss' }, undefined, [422]);
  await post('IOSS consignment check', '/v1/vat/threshold-check', { threshold_type: 'ioss', amount_minor: 12000 });
  const notification = await until('an overdue-period notification', '/v1/compliance/notifications?limit=5', (j: { items?: { id: number }[] }) => j.items?.[0]?.id);
  await get('notifications', '/v1/compliance/notifications', { limit: '5', unread: 'true' });
  await post('a notification read', `/v1/compliance/notifications/${notification}/read`);

  // VAT numbers (the local VIES confirms it).
  await post('a VAT number checked in VIES', '/v1/vat-numbers/check', { vat_number: 'DE136695976' });
  await get('VAT-number checks', '/v1/vat-numbers/checks', { limit: '5' });

  // Classification: resolution, an assignment that reclassifies the locked quarter's sale (a correction review).
  await post('tax class of an exact code', '/v1/tax-class/resolve', { scheme: 'cpa', exact_code: '62.01', catalog_version: '2.1', jurisdiction: 'DE', legal_date: '2026-03-01' }, undefined, classificationAnswers);
  const assignments = `/v1/integrations/${p.integrationId}/product-code-assignments`;
  // Valid from before today: a backdated assignment needs the attestation.
  const assignment = { scheme: 'cpa', exact_code: '62.01.11', product_reference: 'sku-1', requested_valid_from: '2026-01-01', attestation: { statement: 'The product is custom software development (CPA 62.01).', attested_by: 'Prism check' } };
  const created = await post('a product-code assignment', assignments, assignment, undefined, classificationAnswers);
  await post('the same assignment again', assignments, assignment, undefined, classificationAnswers);
  const assignmentId = created.json?.assignment_id ?? 'missing';
  await get('product-code assignments', assignments, { product_reference: 'sku-1' });
  await get('one assignment', `${assignments}/${assignmentId}`, undefined, classificationAnswers);
  await post('the assignment validated', `${assignments}/${assignmentId}/validate`, undefined, undefined, classificationAnswers);
  const review = p.classification ? await until<string>('a correction review of the locked quarter', '/v1/classification/correction-reviews', (j: { items?: { id: string }[] }) => j.items?.[0]?.id) : undefined;
  await get('correction reviews', '/v1/classification/correction-reviews', { status: 'open' });
  await post('a correction review dismissed', `/v1/classification/correction-reviews/${review ?? 'missing'}/resolve`, { action: 'dismiss', note: 'the quarter is filed' }, undefined, review ? undefined : [404]);
  await post('the assignment archived', `${assignments}/${assignmentId}/archive`, undefined, undefined, classificationAnswers);

  // The dashboard session: sign in with the key, read it with the cookie, sign out with the CSRF token.
  const signIn = async () => {
    const session = await send({ label: 'dashboard sign-in', method: 'POST', path: '/v1/sessions', body: { api_key: p.keys.full } });
    return { cookie: (session.headers.get('set-cookie') ?? '').split(';')[0]!, 'x-csrf-token': session.json?.csrf_token ?? 'missing' };
  };
  const reader = await signIn();
  await send({ label: 'the session of the cookie', method: 'GET', path: '/v1/sessions/current', headers: { cookie: reader.cookie } });
  await send({ label: 'dashboard sign-out', method: 'DELETE', path: '/v1/sessions/current', headers: await signIn() });
  // The invalid sign-outs start from a session that is still open.
  client.startFrom({ kind: 'valid', label: 'dashboard sign-out', method: 'DELETE', path: '/v1/sessions/current', headers: await signIn() });
}
