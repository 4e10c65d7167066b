import { readFileSync } from 'node:fs';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number };
type Profile = { nodes: ProfileNode[]; startTime: number; endTime: number };

/** Where a frame lives: a package name, a repository file, or a Node/V8 internal. */
function place(url: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1]!;
  const repo = /\/(gateway|platform|services|deploy|gen|seeds)\/(.*)$/.exec(url);
  if (repo) return `${repo[1]}/${repo[2]}`;
  return url.startsWith('node:') ? url : url ? 'other' : '(native)';
}

/** Top self-time frames and packages of a V8 `.cpuprofile`, as markdown tables. */
export function summarizeCpuProfile(file: string, top = 15): string {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const total = p.nodes.reduce((n, x) => n + (x.hitCount ?? 0), 0) || 1;
  const byFrame = new Map<string, number>();
  const byPlace = new Map<string, number>();
  for (const n of p.nodes) {
    const hits = n.hitCount ?? 0;
    if (!hits) continue;
    const where = place(n.callFrame.url);
    const frame = `${n.callFrame.functionName || '(anonymous)'} — ${where}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
    byFrame.set(frame, (byFrame.get(frame) ?? 0) + hits);
    byPlace.set(where, (byPlace.get(where) ?? 0) + hits);
  }
  const pct = (v: number) => `${((100 * v) / total).toFixed(1)} %`;
  const rows = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `| ${k.replaceAll('|', '\\|')} | ${pct(v)} |`);
  return [
    `CPU profile: ${((p.endTime - p.startTime) / 1e6).toFixed(1)} s, ${total} samples`,
    '',
    '| top self-time frame | share |',
    '|---|---:|',
    ...rows(byFrame),
    '',
    '| by package / file | share |',
    '|---|---:|',
    ...rows(byPlace),
  ].join('\n');
}
