/**
 * Start-time benchmark of `npm start` (issue 7: first start ≤ 3 s, restart ≤ 2 s to `/ready` 200).
 *
 * Runs `npm start` (the compiled entry point, after what `npm install` prepares) with a fresh temporary DATA_DIR (embedded PGlite) and PORT 0, measures the
 * time from spawn to the first `/ready` 200, stops it, starts it again on the same directory, and repeats
 * (`START_RUNS`, default 3). Prints medians and a breakdown taken from the process's own timing logs (every
 * info line with a numeric `ms`, and `cpuMs`: CPU time, which a busy machine distorts far less than wall time).
 * Run: `npx tsx test/bench/start-time.ts`. `START_CPU_PROF=1` profiles the last restart instead (the npm script's
 * command run directly with `--cpu-prof`: Node 24 refuses it in NODE_OPTIONS, so that run has no npm) and prints its summary.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { entryScript, NODE, ROOT, scriptNodeFlags, sleep, spawnProcess, stopProcess, type Proc } from '../support/processes';
import { summarizeCpuProfile } from './cpu-profile';
import { prepareLikeInstall } from './embedded-start';

const RUNS = Number(process.env.START_RUNS ?? 3);
const BIN = join(ROOT, 'node_modules/.bin');

type LogLine = { time: number; msg: string; ms?: number; cpuMs?: number; service?: string; component?: string; address?: string };
type Sample = { readyMs: number; cpuMs: number; phases: Map<string, number> };

/**
 * CPU time (user + system) used so far by every process of a process group (tsx and the server it runs),
 * in ms. Unlike wall time it barely depends on what else the machine is doing.
 */
function groupCpuMs(pgid: number): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[2]) === pgid) ticks += Number(f[11]) + Number(f[12]);
    } catch {
      /* exited meanwhile */
    }
  }
  return ticks * 10;
}

/** Waits for the `listening` log line, then polls `/ready` every 20 ms; resolves at the first 200. */
async function timeToReady(lines: LogLine[], proc: Proc, t0: number): Promise<number> {
  for (;;) {
    if (proc.exited()) throw new Error(`server exited before it was ready:\n${proc.output()}`);
    const address = lines.find((l) => l.msg === 'listening')?.address;
    const ok = address !== undefined && (await fetch(`${address}/ready`).then((r) => r.ok, () => false));
    if (ok) return performance.now() - t0;
    if (performance.now() - t0 > 180_000) throw new Error(`not ready after 180 s:\n${proc.output()}`);
    await sleep(20);
  }
}

/** One start of the server on `dataDir`: time to ready plus the phases it logged. */
async function startOnce(dataDir: string, profileDir?: string): Promise<Sample> {
  const lines: LogLine[] = [];
  const t0 = performance.now();
  const wall0 = Date.now();
  const env = { PATH: `${BIN}:${process.env.PATH}`, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' };
  // Node 24 refuses --cpu-prof in NODE_OPTIONS: a profiled start runs the npm script's command itself.
  const proc = profileDir
    ? spawnProcess('main all (profiled)', NODE, [...scriptNodeFlags('main'), '--cpu-prof', '--cpu-prof-dir', profileDir, ...entryScript('main'), 'all'], { env })
    : spawnProcess('npm start', 'npm', ['start'], { env });
  proc.child.stdout!.on('data', (chunk: Buffer) => {
    for (const l of chunk.toString('utf8').split('\n')) {
      if (!l.startsWith('{')) continue;
      try {
        lines.push(JSON.parse(l) as LogLine);
      } catch {
        /* a line split across chunks: timing lines are short, losing a request log is harmless */
      }
    }
  });
  try {
    const readyMs = await timeToReady(lines, proc, t0);
    const cpuMs = groupCpuMs(proc.pid);
    const phases = new Map<string, number>();
    for (const l of lines) {
      const who = l.service ?? l.component;
      const name = who ? `${who}: ${l.msg}` : l.msg;
      if (typeof l.ms === 'number') phases.set(name, l.ms);
      if (typeof l.cpuMs === 'number') phases.set(`${name} (CPU)`, l.cpuMs);
      if (l.msg === 'listening') phases.set('spawn → listening (wall clock)', l.time - wall0);
    }
    return { readyMs, cpuMs, phases };
  } finally {
    await stopProcess(proc, 'SIGTERM', 15_000);
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function report(first: Sample[], restart: Sample[]): void {
  const fmt = (xs: number[]) => (xs.length ? `${median(xs).toFixed(0)} (${xs.map((x) => x.toFixed(0)).join(', ')})` : '–');
  console.log(`\n| ${RUNS} runs, ms: median (each run) | first start | restart |`);
  console.log('|---|---:|---:|');
  console.log(`| **spawn → /ready 200** | ${fmt(first.map((s) => s.readyMs))} | ${fmt(restart.map((s) => s.readyMs))} |`);
  console.log(`| CPU time used by then (all processes) | ${fmt(first.map((s) => s.cpuMs))} | ${fmt(restart.map((s) => s.cpuMs))} |`);
  const names = [...new Set([...first, ...restart].flatMap((s) => [...s.phases.keys()]))];
  for (const n of names) {
    const pick = (ss: Sample[]) => ss.flatMap((s) => (s.phases.has(n) ? [s.phases.get(n)!] : []));
    console.log(`| ${n} | ${fmt(pick(first))} | ${fmt(pick(restart))} |`);
  }
}

await prepareLikeInstall();
const profileDir = mkdtempSync(join(tmpdir(), 'vat-start-prof-'));
const first: Sample[] = [];
const restart: Sample[] = [];
for (let i = 0; i < RUNS; i++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'vat-start-bench-'));
  try {
    first.push(await startOnce(dataDir));
    restart.push(await startOnce(dataDir, process.env.START_CPU_PROF === '1' && i === RUNS - 1 ? profileDir : undefined));
    console.error(`run ${i + 1}/${RUNS}: first ${first.at(-1)!.readyMs.toFixed(0)} ms, restart ${restart.at(-1)!.readyMs.toFixed(0)} ms (load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]})`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
report(first, restart);
// The server writes its profile when its shutdown ends.
let profiles: string[] = [];
let serverProfile: string | undefined;
for (let waited = 0; process.env.START_CPU_PROF === '1' && !serverProfile && waited < 15_000; waited += 250) {
  await sleep(250);
  profiles = readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(profileDir, f));
  serverProfile = profiles.find((f) => readFileSync(f, 'utf8').includes('deploy/dist/main.js'));
}
if (serverProfile) console.log(`\n### CPU profile of the last restart (the server process, spawn to stop; its idle after /ready shows as idle)\n\n${summarizeCpuProfile(serverProfile, 25)}`);
if (process.env.START_CPU_PROF_KEEP) console.log(`profiles kept in ${profileDir}: ${profiles.join(', ')}`);
else rmSync(profileDir, { recursive: true, force: true });
