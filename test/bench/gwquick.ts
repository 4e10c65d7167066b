// Quick same-machine comparison of the gateway's per-request cost (not committed).
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return [Number(f[11]) * 10, Number(f[12]) * 10] as const; };
import { freshDatabase } from '../support/env';
import { freePort, NODE, runAdmin, spawnMain, spawnProcess, stopAll, stopProcess, waitFor } from '../support/processes';
const D = Number(process.env.BENCH_SECONDS ?? 8);
const db = await freshDatabase({ prefix: 'vat_gwq' });
try {
  const helloPort = await freePort();
  const hello = spawnProcess('hello', NODE, ['--import', 'tsx', 'test/bench/hello.ts', String(helloPort)]);
  await waitFor('hello', async () => (await fetch(`http://127.0.0.1:${helloPort}/`).catch(() => undefined))?.ok, { timeoutMs: 60_000 });
  const port = await freePort();
  const proc = spawnMain('all', { DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000' });
  const base = `http://127.0.0.1:${port}`;
  await waitFor('ready', async () => (await fetch(`${base}/ready`).catch(() => undefined))?.ok, { timeoutMs: 180_000 });
  const r = await runAdmin<{ key: string }>(['keys', 'create', '--account', 'bench', '--scope', 'full'], { DATABASE_URL: db.url });
  const key = r.json.key;
  const out: string[] = [];
  for (const [name, opts] of [
    ['hello', { url: `http://127.0.0.1:${helloPort}/` }],
    ['/health', { url: `${base}/health` }],
    ['tax-classes', { url: `${base}/v1/tax-classes?country=DE` }],
    ['sources', { url: `${base}/v1/sources`, headers: { 'x-api-key': key } }],
  ] as const) {
    await autocannon({ ...opts, duration: 2, connections: 64 } as autocannon.Options);
    const pid = name === 'hello' ? hello.pid : proc.pid;
    const c0 = cpu(pid);
    const a = await autocannon({ ...opts, duration: D, connections: 64 } as autocannon.Options);
    const c1 = cpu(pid);
    const u = ((c1[0] - c0[0]) * 1000) / a.requests.total, k = ((c1[1] - c0[1]) * 1000) / a.requests.total;
    out.push(`${name}: ${a.requests.average.toFixed(0)} req/s p99 ${a.latency.p99} non2xx ${a.non2xx} server CPU user ${u.toFixed(1)} + sys ${k.toFixed(1)} = ${(u + k).toFixed(1)} us/req`);
  }
  console.log(out.join('\n'));
  await stopProcess(proc); await stopProcess(hello);
} finally { await stopAll(); await db.drop(); }
process.exit(0);
