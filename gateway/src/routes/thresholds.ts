import type { ThresholdCheckEntry, ThresholdCoverageRow, ThresholdCrossing, ThresholdNotification, ThresholdStatus } from '@vat/gen/vat/thresholds/v1/resources_pb';
import type { CheckThresholdResponse, GetThresholdSeriesResponse } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import type { Clients } from '@vat/platform/clients';
import { num, opt } from '../json';
import type { RouteDef } from '../route';
import { body, boolParam, date, intOf, intParam, query, str } from './schemas';
import { arrayOf, boolean, dateTime, day, integer, nullable, object, page, ref, string, strings } from '../openapi/shapes';

const money = ref('MoneyMinor');
const COVERAGE = object({ reason: string, disposition: string, evidence_quality: string, materiality: string, currency: string, event_count: integer, net_minor: money });
const CROSSING = object(
  {
    year: integer,
    event_id: string,
    sequence: integer,
    occurred_at: dateTime,
    recorded_at: dateTime,
    event_amount_minor: money,
    cumulative_minor: money,
    threshold_minor: money,
    currency: string,
    establishment_country: string,
    release_version: string,
    policy_version: string,
    proven_at: dateTime,
    superseded_at: dateTime,
    superseded_by_event_id: nullable(string),
  },
  ['superseded_at', 'superseded_by_event_id'],
  'a proven crossing; superseded_* only on a crossing a later event replaced',
);
const CHECK = object({
  currency: string,
  currency_scale: integer,
  threshold_minor: money,
  current_minor: money,
  previous_year_minor: money,
  current_comparison: string,
  previous_comparison: string,
  remaining_minor: money,
  percentage_used: integer,
  source_event_count: integer,
  previous_year_event_count: integer,
  current_year_crossing: nullable(CROSSING),
  preceding_year_crossing: nullable(CROSSING),
  current_year_crossing_history: arrayOf(CROSSING),
  preceding_year_crossing_history: arrayOf(CROSSING),
  historical_crossing_proven: boolean,
  establishment_country: string,
  release_version: string,
  policy_version: string,
  cutoff_at: nullable(dateTime),
  treatment_triggers: strings,
  primary_treatment_driver: string,
});
const STATUS = object({
  checks: arrayOf(CHECK),
  current_year: integer,
  current_year_candidate_event_count: integer,
  preceding_year_candidate_event_count: integer,
  current_year_excluded_event_count: integer,
  preceding_year_excluded_event_count: integer,
  current_year_blocking_event_count: integer,
  preceding_year_blocking_event_count: integer,
  current_year_coverage: arrayOf(COVERAGE),
  preceding_year_coverage: arrayOf(COVERAGE),
  evidence_status: string,
  article_59c_applicability_status: string,
  threshold_evidence_status: string,
  filing_readiness: string,
  issues: strings,
  eur_only: boolean,
  unconverted_currencies: strings,
  ledger_position: integer,
  ledger_head: integer,
  disclaimer: string,
});
const SERIES = object({
  year: integer,
  cutoff_date: day,
  ledger_position: integer,
  series: arrayOf(
    object(
      {
        establishment_country: string,
        currency: string,
        currency_scale: integer,
        threshold_minor: money,
        points: arrayOf(
          object({ date: day, day_minor: money, cumulative_minor: money, event_count: integer }, [], 'a tax-point day whose counted amount changed the total: the change and the running total after it'),
        ),
        crossing: nullable(CROSSING),
      },
      [],
      'one establishment State named by the counted events (one for a resolved status): its threshold and the cumulative counted amount in its currency, oldest day first',
    ),
  ),
});
const OSS_ONLY = ['previous_year_minor', 'previous_comparison', 'release_version', 'policy_version', 'cutoff_at'];
const CHECK_ANSWER = object(
  {
    threshold_type: { type: 'string', enum: ['oss', 'ioss'] },
    threshold_minor: money,
    currency: string,
    currency_scale: integer,
    current_minor: money,
    remaining_minor: money,
    percentage_used: integer,
    exceeded: boolean,
    warning: boolean,
    previous_year_minor: ref('NullableMoneyMinor'),
    previous_comparison: nullable(string),
    release_version: nullable(string),
    policy_version: nullable(string),
    cutoff_at: nullable(dateTime),
    evidence_status: string,
    historical_crossing_proven: boolean,
    unconverted_currencies: strings,
    disclaimer: string,
  },
  OSS_ONLY,
  'the oss-only members are absent from an ioss answer',
);
/** A notification of the list and of `…/read`: an Article 59c mark or an overdue return period. */
const NOTIFICATION = ref('Notification');
import { READ_SCOPES } from './transactions';

const coverageJson = (r: ThresholdCoverageRow) => ({
  reason: r.reason,
  disposition: r.disposition,
  evidence_quality: r.evidenceQuality,
  materiality: r.materiality,
  currency: r.currency,
  event_count: num(r.eventCount),
  net_minor: num(r.netMinor),
});

const crossingJson = (c: ThresholdCrossing | undefined) =>
  c
    ? {
        year: c.year,
        event_id: c.eventId,
        sequence: num(c.sequence),
        occurred_at: c.occurredAt,
        recorded_at: c.recordedAt,
        event_amount_minor: num(c.eventAmountMinor),
        cumulative_minor: num(c.cumulativeMinor),
        threshold_minor: num(c.thresholdMinor),
        currency: c.currency,
        establishment_country: c.establishmentCountry,
        release_version: c.releaseVersion,
        policy_version: c.policyVersion,
        proven_at: c.provenAt,
        ...(c.supersededAt === undefined ? {} : { superseded_at: c.supersededAt, superseded_by_event_id: c.supersededByEventId ?? null }),
      }
    : null;

const checkJson = (c: ThresholdCheckEntry) => ({
  currency: c.currency,
  currency_scale: c.currencyScale,
  threshold_minor: num(c.thresholdMinor),
  current_minor: num(c.currentMinor),
  previous_year_minor: num(c.previousYearMinor),
  current_comparison: c.currentComparison,
  previous_comparison: c.previousComparison,
  remaining_minor: num(c.remainingMinor),
  percentage_used: c.percentageUsed,
  source_event_count: num(c.sourceEventCount),
  previous_year_event_count: num(c.previousYearEventCount),
  current_year_crossing: crossingJson(c.currentYearCrossing),
  preceding_year_crossing: crossingJson(c.precedingYearCrossing),
  current_year_crossing_history: c.currentYearCrossingHistory.map(crossingJson),
  preceding_year_crossing_history: c.precedingYearCrossingHistory.map(crossingJson),
  historical_crossing_proven: c.historicalCrossingProven,
  establishment_country: c.establishmentCountry,
  release_version: c.releaseVersion,
  policy_version: c.policyVersion,
  cutoff_at: opt(c.cutoffAt),
  treatment_triggers: c.treatmentTriggers,
  primary_treatment_driver: c.primaryTreatmentDriver,
});

const statusJson = (s: ThresholdStatus) => ({
  checks: s.checks.map(checkJson),
  current_year: s.currentYear,
  current_year_candidate_event_count: num(s.currentYearCandidateEventCount),
  preceding_year_candidate_event_count: num(s.precedingYearCandidateEventCount),
  current_year_excluded_event_count: num(s.currentYearExcludedEventCount),
  preceding_year_excluded_event_count: num(s.precedingYearExcludedEventCount),
  current_year_blocking_event_count: num(s.currentYearBlockingEventCount),
  preceding_year_blocking_event_count: num(s.precedingYearBlockingEventCount),
  current_year_coverage: s.currentYearCoverage.map(coverageJson),
  preceding_year_coverage: s.precedingYearCoverage.map(coverageJson),
  evidence_status: s.evidenceStatus,
  article_59c_applicability_status: s.article59cApplicabilityStatus,
  threshold_evidence_status: s.thresholdEvidenceStatus,
  filing_readiness: s.filingReadiness,
  issues: s.issues,
  eur_only: s.eurOnly,
  unconverted_currencies: s.unconvertedCurrencies,
  ledger_position: num(s.ledgerPosition),
  ledger_head: num(s.ledgerHead),
  disclaimer: s.disclaimer,
});

const seriesJson = (r: GetThresholdSeriesResponse) => ({
  year: r.year,
  cutoff_date: r.cutoffDate,
  ledger_position: num(r.ledgerPosition),
  series: r.series.map((s) => ({
    establishment_country: s.establishmentCountry,
    currency: s.currency,
    currency_scale: s.currencyScale,
    threshold_minor: num(s.thresholdMinor),
    points: s.points.map((p) => ({ date: p.date, day_minor: num(p.dayMinor), cumulative_minor: num(p.cumulativeMinor), event_count: num(p.eventCount) })),
    crossing: crossingJson(s.crossing),
  })),
});

const checkResponseJson = (r: CheckThresholdResponse) => ({
  threshold_type: r.thresholdType,
  threshold_minor: num(r.thresholdMinor),
  currency: r.currency,
  currency_scale: r.currencyScale,
  current_minor: num(r.currentMinor),
  remaining_minor: num(r.remainingMinor),
  percentage_used: r.percentageUsed,
  exceeded: r.exceeded,
  warning: r.warning,
  ...(r.thresholdType === 'oss'
    ? {
        previous_year_minor: r.previousYearMinor === undefined ? null : num(r.previousYearMinor),
        previous_comparison: opt(r.previousComparison),
        release_version: opt(r.releaseVersion),
        policy_version: opt(r.policyVersion),
        cutoff_at: opt(r.cutoffAt),
      }
    : {}),
  evidence_status: r.evidenceStatus,
  historical_crossing_proven: r.historicalCrossingProven,
  unconverted_currencies: r.unconvertedCurrencies,
  disclaimer: r.disclaimer,
});

/** A return period past its due date (issue 21): the period instead of an Article 59c mark. */
const overdueJson = (n: ThresholdNotification) => ({
  id: num(n.id),
  kind: n.kind,
  year: n.year,
  scheme_type: n.schemeType,
  period_key: n.periodKey,
  due_date: n.dueDate,
  created_at: n.createdAt,
  read: n.readAt !== undefined,
  read_at: opt(n.readAt),
});

const notificationJson = (n: ThresholdNotification) => (n.kind === 'return_period_overdue' ? overdueJson(n) : {
  id: num(n.id),
  kind: n.kind,
  year: n.year,
  event_id: n.eventId,
  cumulative_minor: num(n.cumulativeMinor),
  threshold_minor: num(n.thresholdMinor),
  currency: n.currency,
  occurred_at: n.occurredAt,
  recorded_at: n.recordedAt,
  created_at: n.createdAt,
  read: n.readAt !== undefined,
  read_at: opt(n.readAt),
});

export function thresholdRoutes(clients: Clients): RouteDef[] {
  return [
    {
      method: 'GET',
      url: '/v1/compliance/threshold-status',
      access: { scopes: READ_SCOPES },
      summary: 'Article 59c threshold status of the account (current and preceding calendar year) from committed supply events',
      tags: ['compliance'],
      schema: { querystring: query({}) },
      responses: { 200: STATUS },
      errors: {},
      handler: async ({ call }) => statusJson((await clients.thresholds.getThresholdStatus({}, call)).status!),
    },
    {
      method: 'GET',
      url: '/v1/compliance/threshold-status/series',
      access: { scopes: READ_SCOPES },
      summary: "Article 59c: the year's cumulative counted amount by tax-point day against the threshold, with the crossing (the chart behind the status)",
      tags: ['compliance'],
      schema: { querystring: query({ year: { ...intParam('invalid_year'), description: 'calendar year, default the current one (UTC); not later (400 year_after_current_year)' } }) },
      responses: { 200: SERIES },
      errors: { 400: ['invalid_year', 'year_after_current_year', 'unknown_parameter'] },
      handler: async ({ req, call }) => seriesJson(await clients.thresholds.getThresholdSeries({ year: intOf((req.query as { year?: string }).year) }, call)),
    },
    {
      method: 'POST',
      url: '/v1/vat/threshold-check',
      access: { scopes: READ_SCOPES },
      summary: 'Article 59c (oss) threshold check, or one IOSS consignment against EUR 150 (ioss)',
      tags: ['compliance'],
      schema: {
        body: body(
          {
            threshold_type: str('invalid_threshold_type', { enum: ['oss', 'ioss'] }),
            from: date('invalid_from', 'oss only: must be 1 January of the cutoff year (400 invalid_threshold_range otherwise); default that date'),
            to: date('invalid_to', 'oss only: UTC cutoff date, not after today (400 to_after_today); default today'),
            amount_minor: { type: 'integer', minimum: 0, maximum: 1e15, 'x-error': 'invalid_amount_minor', description: 'ioss only (required): consignment intrinsic value in EUR cents' },
          },
          ['threshold_type'],
          'invalid_request',
        ),
      },
      responses: { 200: CHECK_ANSWER },
      errors: {
        400: ['invalid_threshold_type', 'invalid_from', 'invalid_to', 'invalid_threshold_range', 'to_after_today', 'invalid_amount_minor', 'missing_amount_minor', 'unexpected_amount_minor', 'unexpected_date_range'],
        422: ['article_59c_evidence_incomplete'],
      },
      handler: async ({ req, call }) => {
        const b = req.body as { threshold_type: string; from?: string; to?: string; amount_minor?: number };
        const r = await clients.thresholds.checkThreshold(
          { thresholdType: b.threshold_type, from: b.from, to: b.to, amountMinor: b.amount_minor === undefined ? undefined : BigInt(b.amount_minor) },
          call,
        );
        return checkResponseJson(r);
      },
    },
    {
      method: 'GET',
      url: '/v1/compliance/notifications',
      access: { scopes: READ_SCOPES },
      summary: 'Notifications of the account (Article 59c warning band entered, threshold crossed; a return period overdue), oldest first',
      tags: ['compliance'],
      schema: {
        querystring: query({
          cursor: str('invalid_cursor', { maxLength: 40 }),
          unread: boolParam('invalid_unread'),
          limit: { ...intParam('invalid_limit'), description: '1-100, default 50' },
        }),
      },
      responses: {
        200: page(NOTIFICATION),
      },
      errors: { 400: ['invalid_cursor', 'invalid_unread', 'invalid_limit', 'unknown_parameter'] },
      handler: async ({ req, call }) => {
        const q = req.query as { cursor?: string; unread?: string; limit?: string };
        const r = await clients.thresholds.listNotifications({ cursor: q.cursor, unread: q.unread === undefined ? undefined : q.unread === 'true', limit: intOf(q.limit) }, call);
        return { items: r.items.map(notificationJson), next_cursor: opt(r.nextCursor) };
      },
    },
    {
      method: 'POST',
      url: '/v1/compliance/notifications/:id/read',
      access: { scopes: ['full'] },
      summary: 'Mark a threshold notification read (idempotent; the first read time is kept; scope full)',
      tags: ['compliance'],
      schema: { params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
      responses: { 200: NOTIFICATION },
      errors: { 404: ['notification_not_found'] },
      handler: async ({ req, call }) => {
        const { id } = req.params as { id: string };
        return notificationJson((await clients.thresholds.markNotificationRead({ id }, call)).notification!);
      },
    },
  ];
}
