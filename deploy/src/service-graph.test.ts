import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_OWNERS, type ClientName } from '@vat/platform/clients';
import { SERVICE_NAMES, type ServiceName } from '@vat/platform/config';
import { MODULES } from './modules';

/**
 * The calls between services, read from their sources: each `clients.<client>.<method>(` a file makes,
 * attributed to the RPCs whose handler reaches that file by (non-type) imports, one handler file per RPC
 * (`handlers/<method-in-kebab-case>.ts`). Consumers and start-up code are roots of their own.
 *
 * Two checks of the graph. The services' declared `uses` form a layered graph without a cycle (`cycleIn`):
 * ledger at the bottom (it calls nobody), classification, thresholds and compliance-reports above it,
 * calculation on top; what a lower service needs of a higher one travels as events into its own projection
 * (docs/architecture.md, "The service graph"). And, RPC by RPC, no chain of calls comes back to a service
 * already on it (`loopsIn`), as v2 calculate → thresholds GetThresholdStatus → calculation ListSources once did.
 */

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const srcOf = (svc: ServiceName) => join(ROOT, 'services', svc, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

type Call = { client: string; method: string };

/** `clients.<client>.<method>` (line breaks allowed around the dots). */
function callsIn(text: string): Call[] {
  return [...text.matchAll(/\bclients\s*\.\s*(\w+)\s*\.\s*(\w+)/g)].map((m) => ({ client: m[1]!, method: m[2]! }));
}

/** Uses of `clients` the scan could not follow (destructured, indexed, passed on): refused, so none escapes it. */
function opaqueUses(text: string): string[] {
  return [...text.matchAll(/\bclients\b(?!\s*\.\s*\w+\s*\.\s*\w+)[^\n]*/g)].map((m) => m[0]);
}

/** Relative modules a file imports for their code (`import type` and `export type` carry none). */
function codeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s+)?[^'"]*?from\s*['"](\.[^'"]+)['"]|import\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
    if (m[2]) continue;
    specs.push(m[3] ?? m[4]!);
  }
  return specs.map((s) => resolve(dirname(file), s.endsWith('.ts') ? s : `${s}.ts`)).filter((f) => existsSync(f));
}

/** The file and every file it reaches by code imports. */
function closure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const f of codeImports(file)) closure(f, seen);
  return seen;
}

const kebab = (method: string) => method.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** One service's sources as the checks need them. */
type ServiceCalls = {
  /** RPC method → the calls its handler makes, itself or through what it imports. */
  rpcs: Map<string, Call[]>;
  /** Other files that call (consumers, start-up; handlers' helpers again on their own): file → the calls it and its imports make. */
  background: Map<string, Call[]>;
  /** Every call anywhere in the service's sources. */
  all: Call[];
  opaque: string[];
};

function scan(svc: ServiceName): ServiceCalls {
  const files = sourceFiles(srcOf(svc));
  const direct = new Map(files.map((f) => [f, callsIn(readFileSync(f, 'utf8'))]));
  const reached = (file: string) => [...closure(file)].flatMap((f) => direct.get(f) ?? []);
  const handlersDir = join(srcOf(svc), 'handlers');
  const rpcs = new Map<string, Call[]>();
  const handlerFiles = new Set(files.filter((f) => dirname(f) === handlersDir));
  for (const f of handlerFiles) {
    const method = f.slice(handlersDir.length + 1, -3).replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
    rpcs.set(method, reached(f));
  }
  const background = new Map<string, Call[]>();
  for (const [f, calls] of direct) if (calls.length > 0 && !handlerFiles.has(f)) background.set(relative(ROOT, f), reached(f));
  return {
    rpcs,
    background,
    all: [...direct.values()].flat(),
    opaque: files.flatMap((f) => opaqueUses(readFileSync(f, 'utf8')).map((u) => `${relative(ROOT, f)}: ${u.trim()}`)),
  };
}

/** A cycle of the declared graph (`a → b → … → a`), or undefined when it has none. */
function cycleIn(graph: Record<string, readonly string[]>): string | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, path: string[]): string | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node].join(' → ');
    state.set(node, 'open');
    for (const next of graph[node] ?? []) {
      const found = visit(next, [...path, node]);
      if (found) return found;
    }
    state.set(node, 'done');
    return undefined;
  };
  for (const node of Object.keys(graph)) {
    const found = visit(node, []);
    if (found) return found;
  }
  return undefined;
}

const ownerOf = (client: string): ServiceName | undefined => (CLIENT_OWNERS as Record<string, ServiceName>)[client];

/**
 * Every chain of calls that comes back to a service already on it, from every RPC and every
 * background root; a call to an RPC without a handler file is reported too (it cannot be followed).
 */
function loopsIn(services: Record<ServiceName, Pick<ServiceCalls, 'rpcs' | 'background'>>): string[] {
  const found: string[] = [];
  const walk = (calls: Call[], chain: ServiceName[], path: string[]) => {
    for (const { client, method } of calls) {
      const target = ownerOf(client);
      const step = `${target ?? client}.${method}`;
      if (!target) {
        found.push(`${[...path, step].join(' → ')}: unknown client ${client}`);
        continue;
      }
      if (chain.includes(target)) {
        found.push([...path, step].join(' → '));
        continue;
      }
      const next = services[target].rpcs.get(method);
      if (!next) found.push(`${[...path, step].join(' → ')}: no handlers/${kebab(method)}.ts in ${target}`);
      else walk(next, [...chain, target], [...path, step]);
    }
  };
  for (const svc of SERVICE_NAMES) {
    for (const [method, calls] of services[svc].rpcs) walk(calls, [svc], [`${svc}.${method}`]);
    for (const [file, calls] of services[svc].background) walk(calls, [svc], [file]);
  }
  return [...new Set(found)];
}

describe('the calls between services', () => {
  const scanned = Object.fromEntries(SERVICE_NAMES.map((s) => [s, scan(s)])) as Record<ServiceName, ServiceCalls>;
  const called = (svc: ServiceName) => [...new Set(scanned[svc].all.map((c) => ownerOf(c.client) ?? `unknown client ${c.client}`))].sort();

  it('finds the calls (the checks below cannot pass vacuously)', () => {
    expect(scanned.calculation.rpcs.get('calculateGoverned')).toContainEqual({ client: 'thresholds', method: 'getThresholdStatus' });
    expect(scanned.calculation.rpcs.get('calculateGoverned')).toContainEqual({ client: 'vatNumbers', method: 'getVatNumberEvidence' });
    expect(scanned.thresholds.rpcs.get('getThresholdStatus')).toContainEqual({ client: 'ledger', method: 'getLedgerHead' });
    expect(scanned['compliance-reports'].rpcs.get('lockUnionOssPeriod')).toContainEqual({ client: 'ledger', method: 'fenceReturnPeriod' });
    expect(scanned.classification.background.size).toBeGreaterThan(0);
  });

  it('every service calls exactly the services its module declares in `uses`', () => {
    for (const svc of SERVICE_NAMES) expect(called(svc), `${svc}: services called vs module uses`).toEqual([...MODULES[svc].uses].sort());
  });

  it('draws the declared graph (a change to it is an architecture change: review it)', () => {
    const graph = Object.fromEntries(SERVICE_NAMES.map((s) => [s, [...MODULES[s].uses].sort()]));
    expect(graph).toEqual({
      calculation: ['classification', 'compliance-reports', 'thresholds'],
      classification: ['ledger'],
      'compliance-reports': ['ledger'],
      thresholds: ['ledger'],
      ledger: [],
    });
  });

  it('the declared graph has no cycle (a service reaches a higher one only through events)', () => {
    expect(cycleIn(Object.fromEntries(SERVICE_NAMES.map((s) => [s, MODULES[s].uses])))).toBeUndefined();
    // The check finds the cycle the graph had before the ledger kept its own projections of calculation's data.
    expect(cycleIn({ calculation: ['classification', 'thresholds'], classification: ['ledger'], thresholds: ['ledger'], ledger: ['calculation'] })).toBe('calculation → classification → ledger → calculation');
  });

  it('no chain of calls comes back to a service already on it', () => {
    expect(loopsIn(scanned)).toEqual([]);
  });

  it('reaches clients only as `clients.<client>.<method>`, which the scan reads', () => {
    expect(SERVICE_NAMES.flatMap((s) => scanned[s].opaque)).toEqual([]);
  });

  it('the loop check finds the loop this graph once had (v2 calculate → thresholds → calculation ListSources)', () => {
    const before = { ...scanned, thresholds: { ...scanned.thresholds, rpcs: new Map(scanned.thresholds.rpcs).set('getThresholdStatus', [{ client: 'ledger', method: 'getLedgerHead' }, { client: 'sources', method: 'listSources' }]) } };
    expect(loopsIn(before)).toContain('calculation.calculateGoverned → thresholds.getThresholdStatus → calculation.listSources');
    expect(opaqueUses('const { ledger } = deps.clients;')).toHaveLength(1);
    expect(callsIn('deps.clients\n  .classification\n  .resolveTaxClass(x)')).toEqual([{ client: 'classification', method: 'resolveTaxClass' }]);
  });
});
