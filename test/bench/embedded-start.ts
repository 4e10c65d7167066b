import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, spawnMain, stopProcess, waitFor } from '../support/processes';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Spawn to `/ready` 200 of `npm start` (mode all, embedded) on `dataDir`, in ms; stops it after. */
async function startToReady(dataDir: string): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  const proc = spawnMain('all', { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' });
  try {
    await waitFor('embedded /ready', async () => {
      if (proc.exited()) throw new Error(`npm start exited:\n${proc.output()}`);
      return (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined))?.ok;
    }, { timeoutMs: 120_000, intervalMs: 20 });
    return performance.now() - t0;
  } finally {
    const code = await stopProcess(proc);
    if (code !== 0) throw new Error(`npm start did not stop cleanly (${code}):\n${proc.output()}`);
  }
}

/** Median first start (empty data directory) and restart (same directory) of the embedded mode. */
export async function measureEmbeddedStart(runs: number): Promise<{ firstMs: number; restartMs: number; first: number[]; restart: number[] }> {
  const first: number[] = [];
  const restart: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'vat-start-'));
    try {
      first.push(await startToReady(join(dir, 'data')));
      restart.push(await startToReady(join(dir, 'data')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(`\nembedded start to /ready: first ${first.map((m) => m.toFixed(0)).join(', ')} ms; restart ${restart.map((m) => m.toFixed(0)).join(', ')} ms`);
  return { firstMs: median(first), restartMs: median(restart), first, restart };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measureEmbeddedStart(Number(process.env.RUNS ?? 3));
  console.log(`median first start ${(r.firstMs / 1000).toFixed(2)} s, median restart ${(r.restartMs / 1000).toFixed(2)} s`);
  process.exit(0);
}
