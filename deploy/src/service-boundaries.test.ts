import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SERVICE_NAMES } from '@vat/platform/config';

/**
 * A service speaks its RPC contract only: REST paths, links and HTTP concerns are the gateway's. So no
 * string in a service's sources starts with `/v1/` or `/v2/`, except inside an error (its detail or
 * metadata may name an endpoint as guidance); and reference data reaches a service through its own
 * importers, not by new imports of `@vat/seeds`.
 */

const ROOT = resolve(new URL('../..', import.meta.url).pathname);

/**
 * The imports of `@vat/seeds` services may have: the reference-data importers (functions and types that read the
 * seed files). The list may shrink; it does not grow. No constant is imported from there (shared constants such
 * as EU_MEMBER_STATES have their one definition in platform).
 */
const SEEDS_IMPORTS_KNOWN = new Set([
  'services/calculation/src/reference/ecb-days.ts -> @vat/seeds/ecb',
  'services/calculation/src/reference/ecb-import.ts -> @vat/seeds/ecb',
  'services/calculation/src/reference/seed.ts -> @vat/seeds/vat-rates',
  'services/classification/src/admin/coverage.ts -> @vat/seeds/vat-rates',
]);

/** Calls whose arguments describe an error. */
const ERROR_BUILDERS = new Set(['rpcError', 'invalidArgument', 'notFound', 'alreadyExists', 'failedPrecondition', 'aborted', 'ConnectError', 'refused']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

const parse = (name: string, text: string) => ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);

function calleeName(node: ts.CallExpression | ts.NewExpression): string | undefined {
  const e = node.expression;
  return ts.isIdentifier(e) ? e.text : ts.isPropertyAccessExpression(e) ? e.name.text : undefined;
}

function insideError(node: ts.Node): boolean {
  for (let n = node.parent; n; n = n.parent) {
    if ((ts.isCallExpression(n) || ts.isNewExpression(n)) && ERROR_BUILDERS.has(calleeName(n) ?? '')) return true;
  }
  return false;
}

/** String literals (template heads included) that start with a REST version prefix, outside errors. */
function restPathsIn(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const text = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : ts.isTemplateExpression(node) ? node.head.text : undefined;
    if (text !== undefined && /^\/v[12]\//.test(text) && !insideError(node)) found.push(text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The names a file imports from `@vat/seeds` modules (a namespace or default import counts as `*`). */
function seedsNamesIn(source: ts.SourceFile): string[] {
  return source.statements.flatMap((st) => {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !st.moduleSpecifier.text.startsWith('@vat/seeds')) return [];
    const clause = st.importClause;
    const bindings = clause?.namedBindings;
    const named = bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => (e.propertyName ?? e.name).text) : [];
    return [...named, ...(clause?.name || (bindings && ts.isNamespaceImport(bindings)) ? ['*'] : [])];
  });
}

/** A constant by the house's naming (`EU_MEMBER_STATES`), or an import that could hold any. */
const isConstantName = (name: string) => name === '*' || /^[A-Z][A-Z0-9_]*$/.test(name);

/** Module specifiers a file imports or re-exports (static, type-only and dynamic). */
function importsIn(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('services stay services', () => {
  const files = SERVICE_NAMES.flatMap((s) => sourceFiles(join(ROOT, 'services', s, 'src'))).map((f) => ({ name: relative(ROOT, f), source: parse(f, readFileSync(f, 'utf8')) }));

  it('finds the services sources (the guards below cannot pass vacuously)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => importsIn(f.source).includes('@vat/seeds/vat-rates'))).toBe(true);
  });

  it('no string starts with /v1/ or /v2/ outside an error', () => {
    expect(files.flatMap((f) => restPathsIn(f.source).map((p) => `${f.name}: ${p}`))).toEqual([]);
  });

  it('imports @vat/seeds nowhere new', () => {
    const seeds = files.flatMap((f) => importsIn(f.source).filter((s) => s === '@vat/seeds' || s.startsWith('@vat/seeds/')).map((s) => `${f.name} -> ${s}`));
    expect(seeds.filter((i) => !SEEDS_IMPORTS_KNOWN.has(i))).toEqual([]);
  });

  it('imports no constant from @vat/seeds', () => {
    expect(files.flatMap((f) => seedsNamesIn(f.source).filter(isConstantName).map((n) => `${f.name}: ${n}`))).toEqual([]);
  });

  it('the scanners see what they look for (so a regression would be caught)', () => {
    const sample = parse(
      'sample.ts',
      [
        "// a comment naming '/v1/sources' is not a string",
        "const a = '/v1/reports/exports';",
        'const b = `/v2/decisions/${id}`;',
        "const c = rpcError(Code.FailedPrecondition, 'needs_v2', 'Use POST /v2/vat/calculate.', { guidance: '/v2/vat/calculate' });",
        "import { EU_MEMBER_STATES } from '@vat/seeds/vat-rates';",
        "const d = await import('@vat/seeds/ecb');",
      ].join('\n'),
    );
    expect(restPathsIn(sample)).toEqual(['/v1/reports/exports', '/v2/decisions/']);
    expect(importsIn(sample)).toEqual(['@vat/seeds/vat-rates', '@vat/seeds/ecb']);
    expect(seedsNamesIn(sample).filter(isConstantName)).toEqual(['EU_MEMBER_STATES']);
    expect(seedsNamesIn(parse('ns.ts', "import * as seeds from '@vat/seeds/ecb';\nimport { loadTaxClasses, type TaxClassSeed } from '@vat/seeds/vat-rates';"))).toEqual(['*', 'loadTaxClasses', 'TaxClassSeed']);
  });
});
