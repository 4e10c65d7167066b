/**
 * Profiles one authenticated GET route of the one-process server on PostgreSQL:
 * `npx tsx test/bench/profile-route.ts /v1/sources [seconds]` prints req/s and the CPU profile summary of the server
 * as the bench runs it (the bundle when fresh); PROFILE_ROUTE_KEEP=1 keeps the .cpuprofile. It also prints the server's
 * and the load generator's CPU time per request (from /proc), which the profile's shares do not give: the V8 profiler
 * counts a socket write that waits for the CPU as time in `writeUtf8String`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freshDatabase } from '../support/env';
import { entryArgs, freePort, NODE, runAdmin, spawnProcess, stopProcess, waitFor } from '../support/processes';
import { summarizeCpuProfile } from './cpu-profile';

const path = process.argv[2] ?? '/v1/sources';
const seconds = Number(process.argv[3] ?? 8);
const db = await freshDatabase({ prefix: 'vat_prof' });
const dir = mkdtempSync(join(tmpdir(), 'vat-prof-'));
const port = await freePort();
const env = { DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000' };
const proc = spawnProcess('main all (profiled)', NODE, ['--cpu-prof', '--cpu-prof-dir', dir, ...entryArgs('main'), 'all'], { env });
try {
  const base = `http://127.0.0.1:${port}`;
  await waitFor('/ready', async () => (await fetch(`${base}/ready`).catch(() => undefined))?.ok, { timeoutMs: 120_000, intervalMs: 100 });
  const key = (await runAdmin<{ key: string }>(['keys', 'create', '--account', 'prof', '--scope', 'full'], { DATABASE_URL: db.url })).json.key;
  await autocannon({ url: `${base}${path}`, headers: { 'x-api-key': key }, duration: 2, connections: 64 });
  const [server0, client0] = [cpuSeconds(proc.pid), cpuSeconds('self')];
  const r = await autocannon({ url: `${base}${path}`, headers: { 'x-api-key': key }, duration: seconds, connections: 64 });
  const perRequest = (s: number) => ((s * 1e6) / r.requests.total).toFixed(1);
  console.log(`${path}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}; CPU per request: server ${perRequest(cpuSeconds(proc.pid) - server0)} µs (profiled), load generator ${perRequest(cpuSeconds('self') - client0)} µs`);
} finally {
  await stopProcess(proc);
  await db.drop();
}
const prof = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
console.log(prof ? summarizeCpuProfile(join(dir, prof), 25) : 'no profile written');
if (process.env.PROFILE_ROUTE_KEEP) console.log(`profile kept in ${dir}`);
else rmSync(dir, { recursive: true, force: true });

/** User + system CPU seconds of a process so far (its threads included). */
function cpuSeconds(pid: number | 'self'): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
