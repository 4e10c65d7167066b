import type { Clients } from '@vat/platform/clients';
import { num, opt, rateJson, taxClassJson } from '../json';
import type { RouteDef } from '../route';
import { arrayOf, boolean, day, integer, nullable, number, object, string } from '../openapi/shapes';
import { RATE, TAX_CLASS_LISTED, TAX_CLASS_WITH_RATES } from './response-shapes';
import { body, boolParam, country, currency, query, str } from './schemas';

const SME_RESULT = object({
  country: string,
  currency: string,
  annual_turnover_nac: integer,
  reference_date: day,
  exemption_threshold_nac: nullable(number),
  exemption_threshold_eur: nullable(number),
  eligibility_status: string,
  eligible_for_exemption: nullable(boolean),
  exceeded_by_nac: nullable(integer),
  scheme_type: string,
  policy: object({ one_national_annual_threshold: nullable(boolean), exclusion_article288_quarantine_period: nullable(string), voluntary_cessation_article290: nullable(boolean) }),
  sectorals: arrayOf(object({ sector: nullable(string), exemption_threshold_eur: nullable(number), exemption_threshold_nac: nullable(number), comment: nullable(string) })),
  data_situation_on: string,
  disclaimer: string,
});

const at = str('invalid_at', { maxLength: 40, description: 'RFC 3339 timestamp or YYYY-MM-DD; default now (UTC)' });

/** Public reference data: tax classes, rates, SME eligibility. */
export function referenceRoutes(clients: Clients): RouteDef[] {
  return [
    {
      method: 'GET',
      url: '/v1/tax-classes',
      access: 'public',
      summary: 'List tax classes (optionally with the rate preview for a country)',
      tags: ['reference'],
      schema: {
        querystring: query({ q: str('invalid_q', { maxLength: 120 }), group: str('unknown_group', { maxLength: 60 }), tag: str('unknown_tag', { maxLength: 60 }), country: country(), at }),
      },
      responses: { 200: object({ items: arrayOf(TAX_CLASS_LISTED) }) },
      errors: { 400: ['invalid_q', 'unknown_group', 'unknown_tag', 'invalid_country', 'invalid_at'] },
      handler: async ({ req, call }) => {
        const q = req.query as Record<string, string | undefined>;
        const res = await clients.taxClasses.listTaxClasses({ q: q.q, group: q.group, tag: q.tag, country: q.country, at: q.at }, call);
        return { items: res.items.map((c) => taxClassJson(c, { preview: q.country !== undefined })) };
      },
    },
    {
      method: 'GET',
      url: '/v1/tax-classes/:id',
      access: 'public',
      summary: 'One tax class with its rates in force at `at`',
      tags: ['reference'],
      schema: {
        params: { type: 'object', properties: { id: str('tax_class_not_found', { maxLength: 60 }) }, required: ['id'] },
        querystring: query({ country: country(), at }),
      },
      responses: { 200: TAX_CLASS_WITH_RATES },
      errors: { 400: ['invalid_country', 'invalid_at'], 404: ['tax_class_not_found'] },
      handler: async ({ req, call }) => {
        const { id } = req.params as { id: string };
        const q = req.query as Record<string, string | undefined>;
        const res = await clients.taxClasses.getTaxClass({ id, country: q.country, at: q.at }, call);
        return taxClassJson(res.taxClass!, { rates: true });
      },
    },
    {
      method: 'GET',
      url: '/v1/vat/rates',
      access: 'public',
      summary: "Rates of a country at a date, or one class's full history in a country",
      tags: ['reference'],
      schema: {
        querystring: query(
          { country: country(), tax_class_id: str('tax_class_not_found', { maxLength: 60 }), at, history: boolParam('invalid_history') },
          ['country'],
        ),
      },
      responses: { 200: object({ country: string, at: nullable(string), data_release_digest: string, rates: arrayOf(RATE) }) },
      errors: { 400: ['invalid_country', 'invalid_at', 'history_requires_tax_class'], 404: ['tax_class_not_found'] },
      handler: async ({ req, call }) => {
        const q = req.query as Record<string, string | undefined>;
        const res = await clients.taxClasses.listRates({ country: q.country!, taxClassId: q.tax_class_id, at: q.at, history: q.history === 'true' }, call);
        return { country: res.country, at: opt(res.at), data_release_digest: res.dataReleaseDigest, rates: res.rates.map(rateJson) };
      },
    },
    {
      method: 'POST',
      url: '/v1/vat/sme-eligibility',
      access: 'public',
      summary: 'SME exemption eligibility against the national Art. 284 threshold',
      tags: ['reference'],
      schema: {
        body: body(
          {
            country: country(),
            annual_turnover_nac: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, 'x-error': 'invalid_turnover', description: 'minor units of the national currency' },
            currency: currency(),
            reference_date: str('invalid_reference_date', { format: 'date', description: 'default today (UTC)' }),
          },
          ['country', 'annual_turnover_nac', 'currency'],
          'invalid_json',
        ),
      },
      responses: { 200: SME_RESULT },
      errors: { 400: ['invalid_country', 'invalid_currency', 'invalid_turnover', 'invalid_reference_date'], 404: ['no_sme_data'], 422: ['currency_mismatch'] },
      handler: async ({ req, call }) => {
        const b = req.body as { country: string; annual_turnover_nac: number; currency: string; reference_date?: string };
        const res = await clients.sme.checkSmeEligibility(
          { country: b.country, currency: b.currency, annualTurnoverNac: BigInt(b.annual_turnover_nac), referenceDate: b.reference_date },
          call,
        );
        const r = res.result!;
        return {
          country: r.country,
          currency: r.currency,
          annual_turnover_nac: num(r.annualTurnoverNac),
          reference_date: r.referenceDate,
          exemption_threshold_nac: opt(r.exemptionThresholdNac),
          exemption_threshold_eur: opt(r.exemptionThresholdEur),
          eligibility_status: r.eligibilityStatus,
          eligible_for_exemption: opt(r.eligibleForExemption),
          exceeded_by_nac: r.exceededByNac === undefined ? null : num(r.exceededByNac),
          scheme_type: r.schemeType,
          policy: {
            one_national_annual_threshold: opt(r.policy?.oneNationalAnnualThreshold),
            exclusion_article288_quarantine_period: opt(r.policy?.exclusionArticle288QuarantinePeriod),
            voluntary_cessation_article290: opt(r.policy?.voluntaryCessationArticle290),
          },
          sectorals: r.sectorals.map((s) => ({ sector: opt(s.sector), exemption_threshold_eur: opt(s.exemptionThresholdEur), exemption_threshold_nac: opt(s.exemptionThresholdNac), comment: opt(s.comment) })),
          data_situation_on: r.dataSituationOn,
          disclaimer: r.disclaimer,
        };
      },
    },
  ];
}
