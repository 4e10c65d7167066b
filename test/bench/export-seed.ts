import pg from 'pg';

/**
 * Fills the database with `rows` stored calculations in all, cloned from the first one stored (at most 300 days
 * apart, every seventh with a source): what the export rows of `npm run bench` and `export-memory.ts` stream.
 * Returns how many were added.
 */
export async function seedExportRows(databaseUrl: string, rows: number): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const existing = Number((await client.query('select count(*) from calculation.calculation')).rows[0].count);
    const need = Math.max(0, rows - existing);
    await client.query(
      `insert into calculation.calculation (id, account_id, api_key_id, created_at, transaction_date, country, currency, tax_class_id, price_includes_vat,
         amount_minor, net_minor, vat_minor, gross_minor, vat_rate_bps, source_id, idempotency_key, request_digest, canonical_request, rate_evidence, rate_evidence_digest,
         rate_evidence_status, replay_status, calculation_version, execution_digest, manifest_digest)
       select gen_random_uuid(), t.account_id, t.api_key_id, t.created_at, t.transaction_date - (g % 300) * interval '1 day', t.country, t.currency, t.tax_class_id,
         t.price_includes_vat, t.amount_minor + g, t.net_minor, t.vat_minor, t.gross_minor, t.vat_rate_bps, case when g % 7 = 0 then '-shop/' || (g % 13) else null end,
         null, t.request_digest, t.canonical_request, t.rate_evidence, t.rate_evidence_digest, t.rate_evidence_status, t.replay_status, t.calculation_version, t.execution_digest, t.manifest_digest
       from (select * from calculation.calculation limit 1) t, generate_series(1, $1) g`,
      [need],
    );
    await client.query('vacuum analyze calculation.calculation');
    return need;
  } finally {
    await client.end();
  }
}

/** Streams `GET /v1/transactions/export` (`version` 1 or 2) to the end: rows, bytes and seconds. */
export async function streamExport(base: string, key: string, version: number): Promise<{ rows: number; bytes: number; secs: number }> {
  const started = process.hrtime.bigint();
  const res = await fetch(`${base}/v1/transactions/export?from=2025-03-01&to=2026-03-02&export_version=${version}`, { headers: { 'x-api-key': key } });
  if (!res.ok) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
  }
  return { rows: lines - 1, bytes, secs: Number(process.hrtime.bigint() - started) / 1e9 };
}
