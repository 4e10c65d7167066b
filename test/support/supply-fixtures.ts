/** Supply-event fixtures shared by the report suites and the Prism check (no test-runner imports: scripts use it too). */
type Json = Record<string, any>;

/** A classified B2C EUR sale of services from DE (the MSI) to FR at 20 %: 100.00 net, 20.00 VAT, on `occurred_at`. */
export function servicesSale(event_id: string, occurred_at: string, over: Json = {}): Json {
  return {
    event_id,
    event_type: 'sale',
    occurred_at,
    supply_kind: 'services',
    customer_type: 'b2c',
    country_of_consumption: 'FR',
    supplier_establishment_country: 'DE',
    currency: 'EUR',
    net_amount_minor: 10000,
    vat_amount_minor: 2000,
    vat_rate_bps: 2000,
    rate_category: 'standard',
    classification_status: 'classified',
    ...over,
  };
}
