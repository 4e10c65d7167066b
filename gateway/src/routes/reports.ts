import { ConnectError } from '@connectrpc/connect';
import type { FastifyReply } from 'fastify';
import type { ReportDocument } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import type { Clients } from '@vat/platform/clients';
import { HttpError, httpErrorFromConnect } from '../errors';
import type { CallOptions, RouteDef } from '../route';
import { arrayOf, file, nullable, object, ref } from '../openapi/shapes';
import { STORED_JSON_ARTIFACT } from '../openapi/report-components';
import { date, intOf, intParam, query, quarterKey, str } from './schemas';
import { READ_SCOPES } from './transactions';

const period = quarterKey('Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999)');
const format = str('invalid_format', {
  enum: ['csv', 'json', 'oss-return', 'bzst-csv'],
  description:
    'csv: the manifest fields on every row, the conversion rule and scope note as codes (their text is in the json manifest); json: { manifest, report }; oss-return: the Annex III return document (JSON; summary only); bzst-csv: the German BZSt upload file (summary only, Member State of identification DE)',
});
const withPeriod = query({ period }, ['period']);
const tags = ['reports'];
const LOCKED = '/v1/reports/locked-return-periods/union-oss';

/** A Union OSS quarter can only be reported with exactly one covering union_oss registration. */
/** The filters and keyset paging of a drill-down into a return's source events; `reason` names what it filters on. */
const drillDown = (reason: string) => ({
  disposition: str('invalid_disposition', { enum: ['included', 'excluded'] }),
  reason: str('invalid_reason', { pattern: '^[a-z0-9_]{1,60}$', description: reason }),
  member_state: str('invalid_member_state', { pattern: '^[A-Z]{2}$', description: 'Member State of consumption (EL for Greece)' }),
  cursor: str('invalid_cursor', { maxLength: 64 }),
  limit: { ...intParam('invalid_limit'), description: '1-500, default 100' },
});
const DRILL_DOWN_ERRORS = ['invalid_disposition', 'invalid_reason', 'invalid_member_state', 'invalid_cursor', 'invalid_limit'];

const ELIGIBILITY = { 422: ['registration_required', 'registration_conflict', 'vat_rate_unavailable'] } as const;
/** The summary export: CSV, or JSON (the package, or the Annex III return document with format=oss-return). */
const SUMMARY_EXPORT = file('text/csv', {
  description: 'format=json: the export package with its manifest; format=oss-return: the Union OSS return document (Annex III of Implementing Regulation (EU) 2020/194)',
  oneOf: [ref('UnionOssSummaryExport'), ref('OssReturnDocument')],
});
/** The breakdown export: CSV, or JSON (format=json; oss-return and bzst-csv are whole returns, asked of the summary export). */
const BREAKDOWN_EXPORT = file('text/csv', ref('UnionOssBreakdownExport'));

/** Sends a service-built document as it is: its bytes are the answer (exact amounts, stored artifacts). */
function send(reply: FastifyReply, doc: ReportDocument | undefined, download: boolean) {
  if (!doc) throw new HttpError(500, 'internal_error', 'The server failed to process the request.');
  reply.header('content-type', doc.mediaType);
  if (download) reply.header('content-disposition', `attachment; filename="${doc.filename}"`);
  return reply.send(Buffer.from(doc.content));
}

/** Keeps each number exactly as written (JSON.parse source text access): a re-serialized document changes nothing else. */
const exactNumbers = (_key: string, value: unknown, context?: { source?: string }) =>
  typeof value === 'number' && context?.source !== undefined ? (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(context.source) : value;

/**
 * A locked-period document names each stored artifact by `export_id`; the REST answer adds, last in each
 * entry of every `exports` list, the path it is downloaded from (the route below).
 */
function withDownloadPaths(doc: ReportDocument | undefined): ReportDocument | undefined {
  if (!doc) return doc;
  const link = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(link);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, v] of Object.entries(value)) {
        if (key === 'exports' && Array.isArray(v)) for (const e of v as Record<string, unknown>[]) e.download_path = `${LOCKED}/exports/${String(e.export_id)}`;
        else link(v);
      }
    }
  };
  const value: unknown = JSON.parse(Buffer.from(doc.content).toString('utf8'), exactNumbers);
  link(value);
  return { ...doc, content: Buffer.from(JSON.stringify(value), 'utf8') };
}

/** The blocking registrations of a 422 eligibility refusal, as the integer ids they are everywhere else. */
async function reportCall<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (!(err instanceof ConnectError)) throw err;
    const http = httpErrorFromConnect(err);
    const ids = http.extra.blocking_registration_ids;
    if (typeof ids !== 'string') throw http;
    const list = ids === '' ? [] : ids.split(',').filter((id) => /^\d{1,15}$/.test(id)).map(Number);
    throw new HttpError(http.status, http.code, http.detail, { ...http.extra, blocking_registration_ids: list });
  }
}

/**
 * The optional body of `…/filed`. No top-level `type`: an absent body is allowed (the schema's property
 * rules apply only to an object), and `filingRecordOf` refuses any other JSON value.
 */
const filingRecordBody = {
  description: 'optional; no body (or {}) records the filing without a reference',
  additionalProperties: false,
  properties: {
    submission_reference: str('invalid_submission_reference', { minLength: 1, maxLength: 100, description: "the reference the tax office's portal gave the submission" }),
    filed_on: date('invalid_filed_on', 'the day the return was submitted: from the day after the quarter to today (UTC)'),
    note: str('invalid_note', { maxLength: 1000, description: 'a note of the filer (one line)' }),
  },
  'x-error': 'invalid_body',
};

function filingRecordOf(b: unknown): { submission_reference?: string; filed_on?: string; note?: string } {
  if (b === undefined) return {};
  if (typeof b !== 'object' || b === null || Array.isArray(b)) throw new HttpError(400, 'invalid_body', 'The request body must be a JSON object (or absent).');
  return b as { submission_reference?: string; filed_on?: string; note?: string };
}

export function reportRoutes(clients: Clients): RouteDef[] {
  /** A report document of one quarter (`period`), read by `fetch` and answered as JSON. */
  const periodDocument = (
    url: string,
    summary: string,
    document: object,
    errors: RouteDef['errors'],
    fetch: (periodKey: string, call: CallOptions) => Promise<{ document?: ReportDocument }>,
  ): RouteDef => ({
    method: 'GET',
    url,
    access: { scopes: READ_SCOPES },
    summary,
    tags,
    schema: { querystring: withPeriod },
    responses: { 200: document },
    errors,
    handler: async ({ req, reply, call }) => {
      const r = await reportCall(fetch((req.query as { period: string }).period, call));
      return send(reply, r.document, false);
    },
  });
  const preview = (url: string, view: string, summary: string, document: object) =>
    periodDocument(url, summary, document, ELIGIBILITY, (periodKey, call) => clients.unionOss.getUnionOssReport({ periodKey, view }, call));
  const exportRoute = (url: string, view: string, summary: string, answer: object): RouteDef => ({
    method: 'GET',
    url,
    access: { scopes: READ_SCOPES },
    summary,
    tags,
    schema: { querystring: query({ period, format, export_version: { ...intParam('invalid_export_version'), description: '1 (the default and only version)' } }, ['period', 'format']) },
    responses: { 200: answer },
    errors: { 400: ['invalid_export_version', 'invalid_format'], 422: [...ELIGIBILITY[422], 'format_unavailable', 'bzst_file_refused'] },
    handler: async ({ req, reply, call }) => {
      const q = req.query as { period: string; format: string; export_version?: string };
      const r = await reportCall(clients.unionOss.exportUnionOssReport({ periodKey: q.period, view, format: q.format, exportVersion: intOf(q.export_version) }, call));
      // Corrections a BZSt file cannot carry: named in a header, never dropped silently.
      if (q.format === 'bzst-csv') reply.header('manual-corrections', r.manualCorrections.map((m) => `${m.memberStateOfConsumption} ${m.originalPeriod} ${m.vatAmount}`).join('; '));
      return send(reply, r.document, true);
    },
  });
  return [
    preview('/v1/reports/oss-quarterly-summary', 'summary', 'Union OSS quarterly summary preview (sections 2a-2d, corrections, balances; minor units)', ref('UnionOssSummary')),
    preview('/v1/reports/country-vat-breakdown', 'country_breakdown', 'Union OSS breakdown per Member State of consumption (minor units)', ref('UnionOssCountryBreakdown')),
    exportRoute('/v1/reports/oss-quarterly-summary/export', 'summary', 'Quarterly summary export package (major units; CSV or JSON with manifest), the Annex III return document (format=oss-return) or the BZSt upload file (format=bzst-csv)', SUMMARY_EXPORT),
    exportRoute('/v1/reports/country-vat-breakdown/export', 'country_breakdown', 'Country breakdown export package (major units; CSV or JSON with manifest)', BREAKDOWN_EXPORT),
    {
      method: 'GET',
      url: '/v1/reports/oss-accountant-report',
      access: { scopes: READ_SCOPES },
      summary: 'Accountant report: manifest, filing context (due date, overdue, nil return, status, filing record), summary and breakdown in major units; format=pdf for the printable report',
      tags,
      schema: { querystring: query({ period, format: str('invalid_format', { enum: ['json', 'pdf'], description: 'json (default) or pdf (printable, fonts embedded)' }) }, ['period']) },
      responses: { 200: file('application/pdf', { ...ref('AccountantReport'), description: 'format=json (the default); format=pdf answers the printable report' }) },
      errors: { ...ELIGIBILITY, 400: ['invalid_format'] },
      handler: async ({ req, reply, call }) => {
        const q = req.query as { period: string; format?: string };
        const r = await reportCall(clients.unionOss.getUnionOssReport({ periodKey: q.period, view: 'accountant_report', format: q.format }, call));
        return send(reply, r.document, q.format === 'pdf');
      },
    },
    {
      method: 'GET',
      url: '/v1/reports/oss-quarterly-summary/events',
      access: { scopes: READ_SCOPES },
      summary: "Drill-down: the source events of one quarter's return with their disposition (included/excluded), warning code, reason and review; a locked quarter lists what its lock sealed (keyset cursor)",
      tags,
      schema: {
        querystring: query(
          {
            period,
            ...drillDown('a warning code (e.g. unsupported_supply_kind_excluded) or a reason (e.g. domestic_supply)'),
          },
          ['period'],
        ),
      },
      responses: { 200: ref('UnionOssEventPage') },
      errors: { ...ELIGIBILITY, 400: DRILL_DOWN_ERRORS },
      handler: async ({ req, reply, call }) => {
        const q = req.query as { period: string; disposition?: string; reason?: string; member_state?: string; cursor?: string; limit?: string };
        const r = await reportCall(
          clients.unionOss.listUnionOssEvents({ periodKey: q.period, disposition: q.disposition, reason: q.reason, memberState: q.member_state, cursor: q.cursor, limit: intOf(q.limit) }, call),
        );
        return send(reply, r.document, false);
      },
    },
    {
      method: 'GET',
      url: '/v1/reports/ioss-monthly/events',
      access: { scopes: READ_SCOPES },
      summary: 'Drill-down: the imported-goods events of one IOSS month with their disposition (included/excluded), exclusion code and review (keyset cursor)',
      tags,
      schema: {
        querystring: query(
          {
            month: str('invalid_month', { pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'IOSS month YYYY-MM, from 2021-07 (when IOSS began)' }),
            ...drillDown('an IOSS exclusion code (e.g. consignment_above_150_eur_excluded)'),
          },
          ['month'],
        ),
      },
      responses: { 200: ref('IossEventPage') },
      errors: { 400: ['invalid_month', ...DRILL_DOWN_ERRORS] },
      handler: async ({ req, reply, call }) => {
        const q = req.query as { month: string; disposition?: string; reason?: string; member_state?: string; cursor?: string; limit?: string };
        const r = await clients.unionOss.listIossEvents({ month: q.month, disposition: q.disposition, reason: q.reason, memberState: q.member_state, cursor: q.cursor, limit: intOf(q.limit) }, call);
        return send(reply, r.document, false);
      },
    },
    periodDocument(
      '/v1/reports/filing-prep',
      'OSS/IOSS filing-prep workspace: registrations, Union OSS quarter (or why it is not eligible), the three IOSS months (EUR minor units), locked-period metadata, official basis',
      ref('FilingPrep'),
      {},
      (periodKey, call) => clients.unionOss.getFilingPrep({ periodKey }, call),
    ),
    periodDocument(
      '/v1/reports/multi-jurisdiction',
      'Filing-exposure preview per Member State of consumption: Union OSS sections 2a-2d and IOSS months at their month-end rates (minor units; requires the union_oss registration)',
      ref('MultiJurisdiction'),
      ELIGIBILITY,
      (periodKey, call) => clients.unionOss.getMultiJurisdiction({ periodKey }, call),
    ),
    {
      method: 'GET',
      url: '/v1/reports/filing-calendar',
      access: { scopes: READ_SCOPES },
      summary: 'Filing calendar: each Union OSS quarter and IOSS month the registrations cover, with due date and status (not_due, due, overdue, locked, filed, nil_return_due); a period found overdue is notified once',
      tags,
      schema: {
        querystring: query({
          from: date('invalid_from', 'first day (inclusive): periods ending on or after it; default the earliest active or ended OSS/IOSS registration'),
          to: date('invalid_to', 'last day (inclusive): periods starting on or before it; default today (UTC); at most ten years after from'),
        }),
      },
      responses: { 200: ref('FilingCalendar') },
      errors: { 400: ['invalid_from', 'invalid_to', 'invalid_date_range', 'unknown_parameter'] },
      handler: async ({ req, reply, call }) => {
        const q = req.query as { from?: string; to?: string };
        const r = await clients.unionOss.getFilingCalendar({ from: q.from, to: q.to }, call);
        return send(reply, r.document, false);
      },
    },
    {
      method: 'GET',
      url: LOCKED,
      access: { scopes: READ_SCOPES },
      summary: 'Locked Union OSS quarters, latest first; with `period`, `current_period` and its stored exports',
      tags,
      schema: { querystring: query({ period }) },
      responses: { 200: object({ items: arrayOf(ref('LockedPeriod')), current_period: { ...nullable(ref('LockedPeriod')), description: 'with `period`: that quarter when it is locked, else null' } }, ['current_period']) },
      errors: {},
      handler: async ({ req, reply, call }) => {
        const q = req.query as { period?: string };
        const r = await clients.unionOss.listLockedUnionOssPeriods({ periodKey: q.period }, call);
        return send(reply, withDownloadPaths(r.document), false);
      },
    },
    {
      method: 'POST',
      url: LOCKED,
      access: { scopes: ['full'] },
      summary: 'Lock a quarter: freeze the accountant preview at the ledger head and store immutable JSON and CSV artifacts (409 period_already_locked; 409 period_not_ended until the quarter\'s last day has passed)',
      tags,
      schema: { querystring: withPeriod },
      responses: { 201: ref('LockedPeriod') },
      errors: { ...ELIGIBILITY, 409: ['period_already_locked', 'period_not_ended'], 503: ['projection_lagging', 'ledger_unavailable'] },
      handler: async ({ req, reply, call }) => {
        const q = req.query as { period: string };
        const r = await reportCall(clients.unionOss.lockUnionOssPeriod({ periodKey: q.period }, call));
        reply.status(201);
        return send(reply, withDownloadPaths(r.document), false);
      },
    },
    {
      method: 'POST',
      url: `${LOCKED}/filed`,
      access: { scopes: ['full'] },
      summary: 'Mark a locked quarter as filed, with an optional filing record (submission_reference, filed_on, note); repeats keep the first filing audit and record (409 period_not_locked; 409 period_not_ended before the quarter\'s end)',
      tags,
      schema: {
        querystring: withPeriod,
        body: filingRecordBody,
      },
      responses: { 200: ref('LockedPeriod') },
      errors: {
        400: ['invalid_body'],
        409: ['period_not_locked', 'period_not_ended'],
      },
      handler: async ({ req, reply, call }) => {
        const q = req.query as { period: string };
        const b = filingRecordOf(req.body);
        const r = await clients.unionOss.markUnionOssPeriodFiled({ periodKey: q.period, submissionReference: b.submission_reference, filedOn: b.filed_on, note: b.note }, call);
        return send(reply, withDownloadPaths(r.document), false);
      },
    },
    {
      method: 'GET',
      url: `${LOCKED}/exports/:export_id`,
      access: { scopes: READ_SCOPES },
      summary: 'Download one stored artifact of a locked quarter, byte-identical to when it was locked',
      tags,
      // No shape rule on the id: malformed, unknown and other accounts' ids get the identical 404.
      schema: { params: { type: 'object', properties: { export_id: { type: 'string' } }, required: ['export_id'] }, querystring: query({}) },
      responses: { 200: file('text/csv, application/pdf', STORED_JSON_ARTIFACT) },
      errors: { 404: ['export_not_found'] },
      handler: async ({ req, reply, call }) => {
        const { export_id: exportId } = req.params as { export_id: string };
        const r = await clients.unionOss.getLockedUnionOssExport({ exportId }, call);
        return send(reply, r.document, true);
      },
    },
  ];
}
