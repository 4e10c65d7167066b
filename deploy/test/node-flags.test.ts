import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

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
});
