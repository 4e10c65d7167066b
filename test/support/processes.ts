import { SERVICE_NAMES, type ServiceName } from '@vat/platform/config';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundleProblem, ENTRIES, type Entry } from '../../deploy/bundle.mjs';
import { deployedNodeOptions } from './deployed-node-options';

/** Repository root (every child process runs here). */
export const ROOT = resolve(new URL('../..', import.meta.url).pathname);
/** The Node 24 binary the npm scripts use (the `node` devDependency). */
export const NODE = join(ROOT, 'node_modules/node/bin/node');
export const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

/** Every variable `loadConfig` reads; children get only what a test passes, never the runner's. */
const CONFIG_VARS = [
  'HOST', 'PORT', 'DATA_DIR', 'DATABASE_URL', 'NATS_URL', 'REDIS_URL', 'LOG_LEVEL', 'BODY_LIMIT_BYTES', 'SERVICE_PORT',
  'CALCULATION_URL', 'CLASSIFICATION_URL', 'COMPLIANCE_REPORTS_URL', 'THRESHOLDS_URL', 'LEDGER_URL', 'INTERNAL_TOKEN',
  'RATE_LIMIT_PER_MINUTE', 'OUTBOX_POLL_MS', 'DATA_ENCRYPTION_KEY', 'DATABASE_WAIT_MS', 'DATABASE_PREPARED_STATEMENTS', 'DATABASE_IDLE_MS', 'METRICS_TOKEN', 'GATEWAY_METRICS',
  'OTEL_TRACES_EXPORTER', 'OTEL_SDK_DISABLED',
];

function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const k of CONFIG_VARS) delete base[k];
  // vitest sets these for its workers; a child server must not think it is a test worker.
  for (const k of Object.keys(base)) if (k.startsWith('VITEST') || k === 'NODE_OPTIONS' || k === 'TEST') delete base[k];
  for (const [k, v] of Object.entries(env)) if (v !== undefined) base[k] = v;
  return base;
}

/** Thrown inside a `waitFor` callback to stop waiting at once (e.g. the process died). */
export class GiveUp extends Error {}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `fn` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, fn: () => Promise<T | undefined | false> | T | undefined | false, opts: { timeoutMs: number; intervalMs?: number }): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v as T;
      last = v;
    } catch (err) {
      if (err instanceof GiveUp) throw err;
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${opts.timeoutMs} ms waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    await sleep(opts.intervalMs ?? 200);
  }
}

async function portBindable(port: number): Promise<boolean> {
  return new Promise((res) => {
    const s = createServer();
    s.once('error', () => res(false));
    s.listen({ host: '127.0.0.1', port }, () => s.close(() => res(true)));
  });
}

const handedOut = new Set<number>();

/**
 * A free TCP port on loopback. With `alsoFree` offsets (e.g. [1000] for a service's health port),
 * port+offset must be free too. Ports are never handed out twice within one test process.
 */
export async function freePort(alsoFree: number[] = []): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    // Pick from 20000-31499: below Linux's ephemeral range (32768-60999), where the outgoing connections
    // of the processes being started (to PostgreSQL, NATS, ...) could take a port before its server binds it.
    const port = 20000 + Math.floor(Math.random() * 11_500);
    if (handedOut.has(port) || alsoFree.some((o) => handedOut.has(port + o))) continue;
    if (!(await portBindable(port))) continue;
    if (!(await Promise.all(alsoFree.map((o) => portBindable(port + o)))).every(Boolean)) continue;
    handedOut.add(port);
    for (const o of alsoFree) handedOut.add(port + o);
    return port;
  }
  throw new Error('no free port found');
}

export async function tcpOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((res) => {
    const s = netConnect({ host, port, timeout: 500 }, () => {
      s.end();
      res(true);
    });
    s.on('error', () => res(false));
    s.on('timeout', () => {
      s.destroy();
      res(false);
    });
  });
}

export type Proc = {
  name: string;
  child: ChildProcess;
  pid: number;
  /** Last output lines (stdout and stderr) for failure messages. */
  output(): string;
  exited(): boolean;
  /** Resolves with the exit code (or signal name) once the process ended. */
  exit: Promise<number | string>;
};

const live = new Set<Proc>();

/** Kills every process group still alive (synchronous; for process exit). */
function killAllSync(): void {
  for (const p of live) {
    try {
      process.kill(-p.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}
process.once('exit', killAllSync);

/** Spawns a command in its own process group, capturing its output. */
export function spawnProcess(name: string, cmd: string, args: string[], opts: { env?: Record<string, string | undefined>; cwd?: string } = {}): Proc {
  const child = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, env: childEnv(opts.env ?? {}), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`could not spawn ${name} (${cmd})`);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const l of chunk.toString('utf8').split('\n')) if (l.trim()) lines.push(l.length > 2000 ? `${l.slice(0, 2000)}…` : l);
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let done = false;
  const exit = new Promise<number | string>((res) => {
    child.once('exit', (code, signal) => {
      done = true;
      res(code ?? signal ?? 'unknown');
    });
    child.once('error', (err) => {
      done = true;
      lines.push(`spawn error: ${err.message}`);
      res('error');
    });
  });
  const proc: Proc = { name, child, pid: child.pid, output: () => lines.slice(-60).join('\n'), exited: () => done, exit };
  live.add(proc);
  void exit.then(() => {
    // The leader is gone; make sure nothing it started lingers in its group.
    try {
      process.kill(-proc.pid, 'SIGKILL');
    } catch {
      /* none left */
    }
    live.delete(proc);
  });
  return proc;
}

/**
 * Stops a process group: `signal` first, SIGKILL after `graceMs`. Resolves with the exit code
 * (or signal name) of the group leader.
 */
export async function stopProcess(p: Proc, signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<number | string> {
  if (!p.exited()) {
    try {
      process.kill(-p.pid, signal);
    } catch {
      /* already gone */
    }
  }
  const timer = sleep(graceMs).then(() => 'timeout' as const);
  const first = await Promise.race([p.exit, timer]);
  if (first !== 'timeout') return first;
  try {
    process.kill(-p.pid, 'SIGKILL');
  } catch {
    /* gone meanwhile */
  }
  return Promise.race([p.exit, sleep(5000).then(() => 'unkillable')]);
}

/** Stops every process this test file started (for afterAll; never throws). */
export async function stopAll(graceMs = 8000): Promise<void> {
  await Promise.all([...live].map((p) => stopProcess(p, 'SIGTERM', graceMs).catch(() => undefined)));
}

/**
 * The node arguments that run an entry point as its npm script does: the compiled bundle through its launcher
 * (deploy/bin/<entry>.mjs) when deploy/dist is built from the current sources (the global setup builds it once
 * per run), else the TypeScript source through tsx. A test never runs code older than the sources. `mode` is the
 * main entry's mode (`all`, a service, `gateway`): it picks the script, see {@link scriptNodeFlags}.
 */
export function entryArgs(entry: Entry, mode?: string): string[] {
  return [...scriptNodeFlags(entry, mode), ...entryScript(entry)];
}

/** The entry point alone (no flags of an npm script): the bundle's launcher when it is fresh, else the source through tsx. */
export function entryScript(entry: Entry): string[] {
  return bundleProblem(entry) === undefined ? [`deploy/bin/${entry}.mjs`] : ['--import', 'tsx', ENTRIES[entry]];
}

/**
 * The npm script that runs an entry point: `npm start` for the one process (`main all`), `npm run start:service`
 * for one distributed process (`main <service>`, as the image's entry point and the k8s and compose files run
 * it: no flags of its own, NODE_OPTIONS from the deployment), `npm run admin` for the CLI.
 */
export function scriptOf(entry: Entry, mode?: string): string {
  if (entry === 'admin') return 'admin';
  if (entry === 'main') return mode === undefined || mode === 'all' ? 'start' : 'start:service';
  throw new Error(`no npm script runs ${entry}`);
}

/** The node flags the npm script of an entry point passes (`"admin": "node --max-old-space-size=256 --max-semi-space-size=8 --liftoff-only deploy/bin/admin.mjs"`). */
export function scriptNodeFlags(entry: Entry, mode?: string): string[] {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const name = scriptOf(entry, mode);
  const words = scripts[name]?.split(/\s+/) ?? [];
  const at = words.indexOf(`deploy/bin/${entry}.mjs`);
  if (words[0] !== 'node' || at < 0) throw new Error(`package.json's "${name}" script does not run node deploy/bin/${entry}.mjs`);
  return words.slice(1, at).filter((w) => w.startsWith('--'));
}

/**
 * `npm start` (`main all`) / `npm run start:service -- <mode>` on Node 24, with that script's node flags; a
 * distributed process also with the NODE_OPTIONS it is deployed with (docker-compose.yml), unless `env` sets them.
 */
export function spawnMain(mode: string, env: Record<string, string | undefined>): Proc {
  const deployed = mode === 'all' ? {} : { NODE_OPTIONS: deployedNodeOptions(mode) };
  return spawnProcess(`main ${mode}`, NODE, [...entryArgs('main', mode), mode], { env: { LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...deployed, ...env } });
}

/** Runs the admin CLI (`npm run --silent admin -- ...`) as its own process; parses its JSON output. */
export async function runAdmin<T = any>(args: string[], env: Record<string, string | undefined>, timeoutMs = 60_000): Promise<{ code: number | string; json: T; stdout: string; stderr: string }> {
  const child = spawn(NODE, [...entryArgs('admin'), ...args], { cwd: ROOT, env: childEnv({ LOG_LEVEL: 'warn', ...env }), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  // 'close', not 'exit': 'exit' can come before the last of stdout is read (an admin run once looked silent).
  const exit = new Promise<number | string>((res) => child.once('close', (code, signal) => res(code ?? signal ?? 'unknown')));
  const code = await Promise.race([exit, sleep(timeoutMs).then(() => 'timeout' as const)]);
  if (code === 'timeout') {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
    throw new Error(`admin ${args.join(' ')} timed out after ${timeoutMs} ms; stderr: ${stderr}`);
  }
  if (code !== 0) throw new Error(`admin ${args.join(' ')} exited ${code}; stderr: ${stderr}; stdout: ${stdout}`);
  let json: T;
  try {
    json = JSON.parse(stdout) as T;
  } catch {
    throw new Error(`admin ${args.join(' ')} printed no JSON: ${stdout} ${stderr}`);
  }
  return { code, json, stdout, stderr };
}

/** A private nats-server with JetStream on its own port and store directory. */
export type PrivateNats = {
  port: number;
  url: string;
  storeDir: string;
  proc: Proc;
  /** SIGKILL (an outage, not a shutdown). */
  kill(): Promise<void>;
  /** Starts it again on the same port and store directory; waits until it accepts connections. */
  restart(): Promise<void>;
  stop(): Promise<void>;
};

export async function startPrivateNats(): Promise<PrivateNats> {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'vat-e2e-nats-'));
  const launch = async () => {
    const proc = spawnProcess(`nats-server :${port}`, NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir]);
    await waitFor(`nats-server on ${port}`, async () => {
      if (proc.exited()) throw new GiveUp(`nats-server exited: ${proc.output()}`);
      return tcpOpen(port);
    }, { timeoutMs: 15_000, intervalMs: 100 });
    return proc;
  };
  const nats: PrivateNats = {
    port,
    url: `nats://127.0.0.1:${port}`,
    storeDir,
    proc: await launch(),
    async kill() {
      await stopProcess(nats.proc, 'SIGKILL', 5000);
      await waitFor('nats port closed', async () => !(await tcpOpen(port)), { timeoutMs: 5000, intervalMs: 50 });
    },
    async restart() {
      nats.proc = await launch();
    },
    async stop() {
      await stopProcess(nats.proc, 'SIGTERM', 5000);
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
  return nats;
}

/** GET/POST against a server with a bounded timeout; returns status and parsed JSON (if any). */
export async function http(method: string, url: string, opts: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<{ status: number; json: any; text: string }> {
  const res = await fetch(url, {
    method,
    headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
  });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

/** Waits until `<base>/ready` answers 200; fails early (with the output) if the process died. */
export async function waitReady(base: string, procs: Proc[], timeoutMs: number): Promise<{ ms: number; json: any }> {
  const t0 = Date.now();
  const json = await waitFor(`${base}/ready`, async () => {
    for (const p of procs) if (p.exited()) throw new GiveUp(`${p.name} exited (${await p.exit}):\n${p.output()}`);
    const r = await http('GET', `${base}/ready`, { timeoutMs: 5000 }).catch(() => undefined);
    return r?.status === 200 ? r.json : undefined;
  }, { timeoutMs, intervalMs: 200 }).catch((err: Error) => {
    throw new Error(`${err.message}\n${procs.map((p) => `--- ${p.name} ---\n${p.output()}`).join('\n')}`);
  });
  return { ms: Date.now() - t0, json };
}

/** The environment variable through which a process finds each service (`CALCULATION_URL`, …). */
export const SERVICE_URL_VARS: Record<ServiceName, string> = {
  calculation: 'CALCULATION_URL',
  classification: 'CLASSIFICATION_URL',
  'compliance-reports': 'COMPLIANCE_REPORTS_URL',
  thresholds: 'THRESHOLDS_URL',
  ledger: 'LEDGER_URL',
};

/** `{ CALCULATION_URL: 'http://127.0.0.1:<port>', … }` for services listening on loopback `ports`. */
export function serviceUrlEnv(ports: Record<ServiceName, number>): Record<string, string> {
  return Object.fromEntries(SERVICE_NAMES.map((n) => [SERVICE_URL_VARS[n], `http://127.0.0.1:${ports[n]}`]));
}

