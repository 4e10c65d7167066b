import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const SERVICE_PACKAGES = ['@vat/calculation', '@vat/classification', '@vat/compliance-reports', '@vat/thresholds', '@vat/ledger', '@vat/seeds'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Module specifiers a source text imports (static, dynamic and re-exports). */
function importsIn(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g)) found.push(m[1] ?? m[2] ?? m[3]!);
  return found;
}

const importsOf = (file: string) => importsIn(readFileSync(file, 'utf8'));
const isServiceImport = (spec: string) => SERVICE_PACKAGES.some((p) => spec === p || spec.startsWith(`${p}/`)) || /(^|\/)services\//.test(spec);

describe('the gateway stays a gateway', () => {
  const files = tsFiles(join(ROOT, 'gateway/src'));

  it('finds the gateway sources (the guard below cannot pass vacuously)', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(importsOf(join(ROOT, 'gateway/src/app.ts'))).toContain('fastify');
  });

  it('imports no service package and no service file by path', () => {
    const offending = files.flatMap((f) =>
      importsOf(f)
        .filter(isServiceImport)
        .map((spec) => `${f.slice(ROOT.length)} imports ${spec}`),
    );
    expect(offending).toEqual([]);
  });

  it('the import scanner recognises a service import (so a regression would be caught)', () => {
    const sample = "import { parseSmeRequest } from '@vat/thresholds/sme/eligibility';\nconst x = await import('@vat/calculation/module');";
    expect(importsIn(sample).filter(isServiceImport)).toEqual(['@vat/thresholds/sme/eligibility', '@vat/calculation/module']);
    expect(importsIn("import '../../services/ledger/src/module';").filter(isServiceImport)).toHaveLength(1);
  });

  it('declares no service package as a dependency', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'gateway/package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const deps = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies });
    expect(deps.filter((d) => SERVICE_PACKAGES.includes(d))).toEqual([]);
  });
});
