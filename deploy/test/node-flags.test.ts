import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptNodeFlags } from '../../test/support/processes';

const ROOT = join(import.meta.dirname, '..', '..');
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The node flags of an npm script, up to its entry point. */
const flagsOf = (script: string) => {
  const words = script.split(/\s+/);
  return words.slice(words.indexOf('node') + 1).filter((w) => w.startsWith('--'));
};

describe('npm scripts that can open the embedded database run V8 without the WebAssembly optimizing tier', () => {
  // docs/operations.md, "Memory": the optimizing compile of PGlite held about 500 MB at every start.
  it('npm start and npm run admin pass --liftoff-only; npm start caps its young generation, the admin CLI keeps its heap caps (old space and young generation)', () => {
    expect(flagsOf(scripts.start!)).toContain('--liftoff-only');
    expect(scripts.start).toMatch(/deploy\/bin\/main\.mjs all$/);
    // docs/operations.md, "Memory": V8's default young generation took npm start past 400 MB under the persisted-calculation load.
    expect(flagsOf(scripts.start!)).toEqual(['--max-semi-space-size=16', '--liftoff-only']);
    // docs/operations.md, "Memory": without the young-generation cap a 200,000-line supply import peaked at 343 MB.
    expect(flagsOf(scripts.admin!)).toEqual(['--max-old-space-size=256', '--max-semi-space-size=8', '--liftoff-only']);
  });

  // The soak's RSS criterion failed from the twelfth session on because the harness ran every distributed process
  // with npm start's flags (a command-line --max-semi-space-size=16 overrides NODE_OPTIONS' 8): docs/benchmarks.md, soak runs 11-12.
  it('a distributed process runs as the image, compose and k8s run it (no node flags; NODE_OPTIONS from the deployment), and the tests and benches spawn it so', () => {
    expect(scripts['start:service']).toBe('node deploy/bin/main.mjs');
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain('ENTRYPOINT ["node", "deploy/bin/main.mjs"]');
    for (const mode of ['calculation', 'classification', 'compliance-reports', 'thresholds', 'ledger', 'gateway']) expect(scriptNodeFlags('main', mode)).toEqual([]);
    expect(scriptNodeFlags('main', 'all')).toEqual(flagsOf(scripts.start!));
    expect(scriptNodeFlags('main')).toEqual(flagsOf(scripts.start!));
    expect(scriptNodeFlags('admin')).toEqual(flagsOf(scripts.admin!));
  });
});
