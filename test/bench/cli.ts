import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase } from '../support/env';
import { freePort, ROOT, spawnProcess, stopProcess, waitReady } from '../support/processes';
import { groupPeakRssMb, measureEmbeddedStart, prepareLikeInstall } from './embedded-start';

/**
 * One admin CLI command (`keys create`) as a user runs it, `npm run --silent admin -- keys create …`: median wall
 * time of `runs` and the largest peak RSS of its processes (npm, the shell, node) sampled while it ran. `env`
 * chooses the database (DATABASE_URL, or DATA_DIR of a running `npm start`).
 */
export async function measureAdmin(env: Record<string, string>, runs: number): Promise<{ medianMs: number; peakMb: number; times: number[] }> {
  await prepareLikeInstall();
  const times: number[] = [];
  let peakMb = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const child = spawn('npm', ['run', '--silent', 'admin', '--', 'keys', 'create', '--account', `bench-cli-${Date.now().toString(36)}-${i}`, '--scope', 'full'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env },
      stdio: 'ignore',
      detached: true,
    });
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, groupPeakRssMb(child.pid!))), 10);
    const [code] = (await once(child, 'exit')) as [number | null];
    clearInterval(sampler);
    if (code !== 0) throw new Error(`admin keys create exited ${code}`);
    times.push(performance.now() - t0);
  }
  console.log(`\nadmin keys create, ms: ${times.map((t) => t.toFixed(0)).join(', ')}; peak RSS ${peakMb.toFixed(0)} MB`);
  return { medianMs: [...times].sort((a, b) => a - b)[Math.floor(runs / 2)]!, peakMb, times };
}

/**
 * `npm run bench -- start`: the issue-24 rows of start and CLI, each measured `runs` times: `npm start` to `/ready` on an
 * empty DATA_DIR and on a restart (with peak RSS), and `keys create` against PostgreSQL (DATABASE_URL) and against a
 * running `npm start` (its DATA_DIR). Returns the markdown table.
 */
export async function startAndCliBench(runs = 3): Promise<string> {
  const start = await measureEmbeddedStart(runs);
  const db = await freshDatabase({ prefix: 'vat_bench_cli' });
  let onPg: Awaited<ReturnType<typeof measureAdmin>>;
  try {
    onPg = await measureAdmin({ DATABASE_URL: db.url }, runs);
  } finally {
    await db.drop();
  }
  const dir = mkdtempSync(join(tmpdir(), 'vat-cli-'));
  const port = await freePort();
  const server = spawnProcess('npm start', 'npm', ['start'], { env: { DATA_DIR: join(dir, 'data'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' } });
  let onEmbedded: Awaited<ReturnType<typeof measureAdmin>>;
  try {
    await waitReady(`http://127.0.0.1:${port}`, [server], 120_000);
    onEmbedded = await measureAdmin({ DATA_DIR: join(dir, 'data') }, runs);
  } finally {
    await stopProcess(server);
    rmSync(dir, { recursive: true, force: true });
  }
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return [
    `\n## Start and CLI (issue 24; median of ${runs}, each run in the log above)\n`,
    '| figure | measured | target |',
    '|---|---|---|',
    `| npm start to /ready: empty DATA_DIR / restart | ${s(start.firstMs)} / ${s(start.restartMs)} | ≤ 2 s / ≤ 1 s |`,
    `| npm start to /health: empty DATA_DIR / restart | ${s(median(start.first.map((x) => x.healthMs)))} / ${s(median(start.restart.map((x) => x.healthMs)))} | |`,
    `| npm start peak RSS (largest process, any run) | ${start.peakRssMb.toFixed(0)} MB | ≤ 400 MB |`,
    `| one admin CLI command (keys create): PostgreSQL / running npm start | ${s(onPg.medianMs)} / ${s(onEmbedded.medianMs)} | ≤ 0.7 s |`,
    `| CLI peak RSS (largest process): PostgreSQL / running npm start | ${onPg.peakMb.toFixed(0)} MB / ${onEmbedded.peakMb.toFixed(0)} MB | ≤ 256 MB |`,
  ].join('\n');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
