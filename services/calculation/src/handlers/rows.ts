/** A `calculation` row as PostgreSQL returns it to raw queries (bigint columns arrive as strings). */
export type CalculationRow = {
  seq: string;
  id: string;
  account_id: string;
  api_key_id: string;
  created_at: Date | string;
  transaction_date: Date | string;
  country: string;
  currency: string;
  tax_class_id: string;
  price_includes_vat: boolean;
  amount_minor: string;
  net_minor: string;
  vat_minor: string;
  gross_minor: string;
  vat_rate_bps: number;
  source_id: string | null;
  idempotency_key: string | null;
  request_digest: string;
  canonical_request: unknown;
  rate_evidence: unknown;
  rate_evidence_status: string;
  replay_status: string;
  calculation_version: string;
  execution_digest: string;
  manifest_digest: string;
};
