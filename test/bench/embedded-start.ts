import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleProblem, ensureBundles } from '../../deploy/bundle.mjs';
import { freePort, ROOT, spawnProcess, stopProcess, waitFor, type Proc } from '../support/processes';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Largest peak resident set (VmHWM) of the processes of a process group (npm, its shell, node), in MB. */
export function groupPeakRssMb(pgid: number): number {
  let peak = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== pgid) continue;
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]) / 1024);
    } catch {
      /* exited meanwhile */
    }
  }
  return peak;
}

/**
 * What `npm install` leaves for a new user: the compiled entry points (deploy/dist) and the embedded template
 * clusters of the current sources (the seeded one is rebuilt when the sources changed since it was built).
 */
export async function prepareLikeInstall(): Promise<void> {
  await ensureBundles();
  execFileSync(join(ROOT, 'node_modules/node/bin/node'), ['deploy/bin/embedded-template.mjs'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (bundleProblem('main') !== undefined) throw new Error('deploy/dist is not current');
}

type StartSample = { readyMs: number; healthMs: number; peakRssMb: number };

/** `npm start` (the npm script, as a user runs it) on `dataDir`: spawn to `/health` and to `/ready` 200, peak RSS; stops it after. */
async function npmStart(dataDir: string): Promise<StartSample> {
  const port = await freePort();
  const t0 = performance.now();
  let healthMs: number | undefined;
  let peakRssMb = 0;
  const proc: Proc = spawnProcess('npm start', 'npm', ['start'], { env: { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' } });
  try {
    await waitFor('npm start /ready', async () => {
      if (proc.exited()) throw new Error(`npm start exited:\n${proc.output()}`);
      peakRssMb = Math.max(peakRssMb, groupPeakRssMb(proc.pid));
      if (healthMs === undefined && (await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined))?.ok) healthMs = performance.now() - t0;
      return healthMs !== undefined && (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined))?.ok;
    }, { timeoutMs: 120_000, intervalMs: 20 });
    const readyMs = performance.now() - t0;
    return { readyMs, healthMs: healthMs!, peakRssMb: Math.max(peakRssMb, groupPeakRssMb(proc.pid)) };
  } finally {
    // npm itself ends on the group's SIGTERM; the server it runs exits 0 after a clean shutdown.
    const code = await stopProcess(proc);
    if (code !== 0 && code !== 'SIGTERM') throw new Error(`npm start did not stop cleanly (${code}):\n${proc.output()}`);
  }
}

export type EmbeddedStart = { firstMs: number; restartMs: number; first: StartSample[]; restart: StartSample[]; peakRssMb: number };

/** Median first start (empty data directory) and restart (same directory) of `npm start`, and the peak RSS of all runs. */
export async function measureEmbeddedStart(runs: number): Promise<EmbeddedStart> {
  await prepareLikeInstall();
  const first: StartSample[] = [];
  const restart: StartSample[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'vat-start-'));
    try {
      first.push(await npmStart(join(dir, 'data')));
      restart.push(await npmStart(join(dir, 'data')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const fmt = (xs: StartSample[]) => xs.map((s) => `${s.readyMs.toFixed(0)} (/health ${s.healthMs.toFixed(0)}, ${s.peakRssMb.toFixed(0)} MB)`).join(', ');
  console.log(`\nnpm start to /ready, ms: first ${fmt(first)}; restart ${fmt(restart)}`);
  return {
    firstMs: median(first.map((s) => s.readyMs)),
    restartMs: median(restart.map((s) => s.readyMs)),
    first,
    restart,
    peakRssMb: Math.max(...first.map((s) => s.peakRssMb), ...restart.map((s) => s.peakRssMb)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measureEmbeddedStart(Number(process.env.RUNS ?? 3));
  console.log(`median first start ${(r.firstMs / 1000).toFixed(2)} s, median restart ${(r.restartMs / 1000).toFixed(2)} s, peak RSS ${r.peakRssMb.toFixed(0)} MB`);
  process.exit(0);
}
