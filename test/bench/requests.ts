/** The body of the benches' `POST /v1/vat/calculate` (a German standard-rate sale of 119.00 EUR gross). */
export const CALCULATE_BODY = { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 11900, price_includes_vat: true, transaction_date: '2026-03-01' };
