/**
 * The one-process server's memory under the 1,000,000-row CSV export alone (the `npm run bench` row "peak with the
 * export"), for looking at the peak without the rest of the bench: `npx tsx test/bench/export-memory.ts [rows]`.
 * Node flags of the server: `npm start`'s, or BENCH_EXPORT_NODE_FLAGS (replacing them) to compare (for example
 * `--heap-growing-percent=300`, which overrides the servers' bound of V8's heap growth, platform/src/heap-growth.ts).
 * Prints the peak RSS (VmHWM) after start and after each export, and the time of each.
 */
import { freshDatabase } from '../support/env';
import { entryScript, freePort, NODE, runAdmin, scriptNodeFlags, spawnProcess, stopProcess, waitFor } from '../support/processes';
import { seedExportRows, streamExport } from './export-seed';
import { CALCULATE_BODY } from './requests';
import { statusMb } from './process-cpu';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const FLAGS = process.env.BENCH_EXPORT_NODE_FLAGS !== undefined ? process.env.BENCH_EXPORT_NODE_FLAGS.split(' ').filter(Boolean) : scriptNodeFlags('main');

const db = await freshDatabase({ prefix: 'vat_bench_export' });
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawnProcess('one process', NODE, [...FLAGS, ...entryScript('main'), 'all'], { env: { DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000' } });
try {
  await waitFor('ready', async () => (await fetch(`${base}/ready`).catch(() => undefined))?.ok, { timeoutMs: 120_000, intervalMs: 100 });
  const key = (await runAdmin<{ key: string }>(['keys', 'create', '--account', 'bench', '--scope', 'full'], { DATABASE_URL: db.url })).json.key;
  const calc = await fetch(`${base}/v1/vat/calculate`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': 'export-memory-1' }, body: JSON.stringify(CALCULATE_BODY) });
  if (!calc.ok) throw new Error(`calculate answered ${calc.status}`);
  await seedExportRows(db.url, ROWS);
  console.log(`flags ${FLAGS.join(' ') || '(none)'}; ready and seeded: rss ${statusMb(server.pid, 'VmRSS').toFixed(0)} / peak ${statusMb(server.pid, 'VmHWM').toFixed(0)} MB`);
  for (const version of [1, 2]) {
    const r = await streamExport(base, key, version);
    console.log(`export v${version}: ${r.rows} rows, ${(r.bytes / 1e6).toFixed(1)} MB in ${r.secs.toFixed(2)} s; rss ${statusMb(server.pid, 'VmRSS').toFixed(0)} / peak ${statusMb(server.pid, 'VmHWM').toFixed(0)} MB`);
  }
} finally {
  await stopProcess(server);
  await db.drop();
}
