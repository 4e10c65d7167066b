import { arrayOf, boolean, dateTime, day, integer, nullable, object, ref, string, strings } from '../openapi/shapes';

/** Response schemas of the JSON shapes in ../json.ts (shared by several route files). */

const sourceEvidence = object({ source_id: string, title: string, url: string, as_of: string, legal_ref: nullable(string), tedb_category: nullable(string), review_status: string });
const snapshotReference = object({ kind: string, digest: string });

export const RATE_PROVENANCE = object(
  {
    schema_version: string,
    evidence_status: string,
    source: string,
    effective_at: string,
    source_evidence: arrayOf(sourceEvidence),
    approved_release_version: string,
    rate_release_digest: nullable(string),
    rate_row_digest: nullable(string),
    snapshot_references: arrayOf(snapshotReference),
  },
  ['approved_release_version', 'rate_release_digest', 'rate_row_digest', 'snapshot_references'],
  'rate-evidence/v1; the release members are present when an approved rate release decided the rate',
);

const CALCULATION_PROVENANCE = object({
  schema_version: string,
  calculation_version: string,
  execution_digest: string,
  algorithm_manifest_version: string,
  algorithm_manifest_digest: string,
  ownership: string,
  evidence_status: string,
  replay_status: string,
});

export const CALCULATION_RESULT_PROPS = {
  calculation_id: nullable(string),
  country: ref('Country'),
  currency: ref('Currency'),
  vat_rate_bps: { type: 'integer', description: 'basis points (2000 = 20 %)' },
  gross_amount_minor: ref('MoneyMinor'),
  net_amount_minor: ref('MoneyMinor'),
  vat_amount_minor: ref('MoneyMinor'),
  transaction_date: string,
  rate_provenance: nullable(RATE_PROVENANCE),
  calculation_provenance: nullable(CALCULATION_PROVENANCE),
};
export const CALCULATION_RESULT = object(CALCULATION_RESULT_PROPS);

export const TRANSACTION_SUMMARY_PROPS = {
  id: string,
  created_at: dateTime,
  transaction_date: string,
  country: ref('Country'),
  currency: ref('Currency'),
  tax_class_id: string,
  vat_rate_bps: integer,
  net_amount_minor: ref('MoneyMinor'),
  vat_amount_minor: ref('MoneyMinor'),
  gross_amount_minor: ref('MoneyMinor'),
  price_includes_vat: boolean,
  source_id: nullable(string),
  api_key_id: integer,
  rate_evidence_status: string,
  replay_status: string,
};

export const RATE = object({
  country: ref('Country'),
  tax_class_id: string,
  rate_bps: integer,
  valid_from: dateTime,
  valid_to: nullable(dateTime),
  rate_type: string,
  conditional: boolean,
  conditions: nullable(string),
  review_status: string,
  sources: arrayOf(object({ source_id: string, title: string, url: string, as_of: string, legal_ref: nullable(string), tedb_category: nullable(string) })),
});

const TAX_CLASS_PROPS = { id: string, name: string, description: string, source: string, group_slug: string, group_name: string, tags: strings, annex_iii_points: strings };
/** A tax class of the list; `preview_rate_bps` only when the list was asked for a `country`. */
export const TAX_CLASS_LISTED = object({ ...TAX_CLASS_PROPS, preview_rate_bps: nullable(integer) }, ['preview_rate_bps']);
export const TAX_CLASS_WITH_RATES = object({ ...TAX_CLASS_PROPS, rates: arrayOf(RATE) });

export const SOURCE_PROFILE = object({
  id: integer,
  source_key: string,
  display_name: string,
  channel_type: string,
  platform: nullable(string),
  default_country: nullable(string),
  default_currency: nullable(string),
  supplier_establishment_country: nullable(string),
  dispatch_country: nullable(string),
  marketplace_deemed_supplier: boolean,
  active: boolean,
  created_at: dateTime,
  updated_at: dateTime,
});

export { day };
