import { createHash } from 'node:crypto';
import pg from 'pg';
import { detectAndParseEcb, importEcbObservations, type EcbImportResult } from '@vat/seeds/ecb';

export const ECB_SCHEMA = 'calculation';

/** Imports an ECB file (CSV or XML) into the calculation schema; idempotent, with progress. */
export async function importEcbFile(databaseUrl: string, fileName: string, text: string, onProgress?: (done: number, total: number) => void): Promise<EcbImportResult & { digest: string }> {
  const obs = detectAndParseEcb(fileName, text);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await importEcbObservations((q, p) => client.query(q, p as unknown[]), obs, onProgress, { schema: ECB_SCHEMA, batchSize: 2000 });
    const digest = `sha256:${createHash('sha256').update(text).digest('hex')}`;
    await client.query(
      `insert into ${ECB_SCHEMA}.reference_release (kind, digest, version, row_count, loaded_at) values ('ecb', $1, $2, $3, now())
       on conflict (kind, digest) do nothing`,
      [digest, result.lastDate ?? '', result.total],
    );
    return { ...result, digest };
  } finally {
    await client.end();
  }
}
