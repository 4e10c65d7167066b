import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import autocannon from 'autocannon';
import pg from 'pg';
import { freshDatabase, requireBackends } from '../support/env';

const ROOT = new URL('../..', import.meta.url).pathname;
const TSX = `${ROOT}node_modules/.bin/tsx`;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const EXPORT_ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function start(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(TSX, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout!.resume();
  return child;
}

async function waitFor(url: string, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${url}`);
}

/** Peak resident set size of a process (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

type Result = { name: string; rps: number; p50: number; p99: number; errors: number; non2xx: number };

async function run(name: string, opts: autocannon.Options): Promise<Result> {
  const r = await autocannon({ duration: DURATION, connections: 64, pipelining: 1, ...opts });
  const res = { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
  return res;
}

function table(rows: Result[], base: number): void {
  console.log('\n| scenario | req/s | p50 ms | p99 ms | ratio to hello-world | errors | non-2xx |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${(r.rps / base).toFixed(3)} | ${r.errors} | ${r.non2xx} |`);
}

const backends = await requireBackends(['postgres']);
if (!backends.ok) process.exit(0);
const db = await freshDatabase({ prefix: 'vat_bench' });
const children: ChildProcess[] = [];
const cleanup = async () => {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await db.drop();
};
try {
  const helloPort = await freePort();
  const hello = start(['test/bench/hello.ts', String(helloPort)], {});
  children.push(hello);
  const port = await freePort();
  const server = start(['deploy/src/main.ts', 'all'], { DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000' });
  children.push(server);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`http://127.0.0.1:${helloPort}/`);
  await waitFor(`${base}/ready`);
  const keyOut = await new Promise<string>((resolve, reject) => {
    const c = spawn(TSX, ['deploy/src/admin.ts', 'keys', 'create', '--account', 'bench', '--scope', 'full'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: db.url } });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`admin exited ${code}`))));
  });
  const key = JSON.parse(keyOut).key as string;
  console.log(`bench: ${DURATION}s per scenario, 64 connections, server pid ${server.pid} on PostgreSQL, Node ${process.version}`);

  const results: Result[] = [];
  results.push(await run('bare Fastify hello-world', { url: `http://127.0.0.1:${helloPort}/` }));
  results.push(await run('GET /health', { url: `${base}/health` }));
  results.push(await run('GET /v1/sources (authenticated)', { url: `${base}/v1/sources`, headers: { 'x-api-key': key } }));
  results.push(await run('GET /v1/tax-classes?country=DE (public)', { url: `${base}/v1/tax-classes?country=DE` }));
  let n = 0;
  const runId = Date.now().toString(36);
  results.push(
    await run('POST /v1/vat/calculate (persisted, Idempotency-Key)', {
      url: base,
      requests: [
        {
          method: 'POST',
          path: '/v1/vat/calculate',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 11900, price_includes_vat: true, transaction_date: '2026-03-01' }),
          setupRequest: (req: autocannon.Request) => ({ ...req, headers: { ...req.headers, 'idempotency-key': `bench-${runId}-${n++}` } }),
        },
      ],
    }),
  );
  table(results, results[0]!.rps);
  const calc = results[results.length - 1]!;
  console.log(`\npersisted calculate: ratio ${(calc.rps / results[0]!.rps).toFixed(3)} (target >= 0.25), p99 ${calc.p99} ms (target <= 10 ms)`);

  // Export: fill the account with EXPORT_ROWS stored calculations (cloned from a real one), then stream them.
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const existing = Number((await client.query('select count(*) from calculation.calculation')).rows[0].count);
  const need = Math.max(0, EXPORT_ROWS - existing);
  const t0 = Date.now();
  await client.query(
    `insert into calculation.calculation (id, account_id, api_key_id, created_at, transaction_date, country, currency, tax_class_id, price_includes_vat,
       amount_minor, net_minor, vat_minor, gross_minor, vat_rate_bps, source_id, idempotency_key, request_digest, canonical_request, rate_evidence,
       rate_evidence_status, replay_status, calculation_version, execution_digest, manifest_digest)
     select gen_random_uuid(), t.account_id, t.api_key_id, t.created_at, t.transaction_date - (g % 300) * interval '1 day', t.country, t.currency, t.tax_class_id,
       t.price_includes_vat, t.amount_minor + g, t.net_minor, t.vat_minor, t.gross_minor, t.vat_rate_bps, case when g % 7 = 0 then '-shop/' || (g % 13) else null end,
       null, t.request_digest, t.canonical_request, t.rate_evidence, t.rate_evidence_status, t.replay_status, t.calculation_version, t.execution_digest, t.manifest_digest
     from (select * from calculation.calculation limit 1) t, generate_series(1, $1) g`,
    [need],
  );
  await client.query('vacuum analyze calculation.calculation');
  await client.end();
  console.log(`\nexport: seeded ${need} rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  for (const version of [1, 2]) {
    const started = process.hrtime.bigint();
    const res = await fetch(`${base}/v1/transactions/export?from=2025-03-01&to=2026-03-02&export_version=${version}`, { headers: { 'x-api-key': key } });
    if (!res.ok) throw new Error(`export answered ${res.status}: ${await res.text()}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
    }
    const secs = Number(process.hrtime.bigint() - started) / 1e9;
    const rows = lines - 1;
    console.log(`export v${version}: ${rows} rows, ${(bytes / 1e6).toFixed(1)} MB in ${secs.toFixed(2)} s = ${Math.round(rows / secs)} rows/s (target >= 250000)`);
  }
  console.log(`server peak RSS (VmHWM) over the whole run: ${peakRssMb(server.pid!).toFixed(1)} MB (target <= 150 MB)`);
} finally {
  await cleanup();
}
process.exit(0);
