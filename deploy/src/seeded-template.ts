import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embeddedTemplateDir, embeddedTemplateMarker, pgliteVersion } from '@vat/platform/embedded-pg-template';

/**
 * The seeded template cluster: what a first `npm start` leaves in a new DATA_DIR's database, built once by
 * `postinstall` (deploy/src/embedded-template.ts) so that a new DATA_DIR starts as a copy of it with nothing
 * to migrate or seed. It holds every schema with every migration applied, the reference data (the VAT rate
 * release, the shipped ECB history, the SME and Article 59c threshold releases) and the other services'
 * projections of it, exactly as the first start stores them; no key, no account, nothing secret (the
 * data-encryption key is made per DATA_DIR when it first starts).
 *
 * It is keyed by a fingerprint of everything that decides that content: the installed PGlite version, the
 * lockfile, and every source and seed file of the workspace packages (migrations, seed data and the code
 * that stores and projects it). A DATA_DIR created while no template of the current fingerprint exists (the
 * sources changed since it was built, or postinstall did not run) starts from the plain initdb template, and
 * the start migrates and seeds as it always did. Either way the start runs its migrations and seeding; on a
 * copy of the seeded template they find everything in place.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** What the fingerprint covers, relative to the repository root (directories are walked; tests are left out). */
const FINGERPRINTED = ['package-lock.json', 'gen/src', 'platform/src', 'services', 'gateway/src', 'seeds', 'deploy/src'];
const PREFIX = 'seeded-';

function* filesUnder(rel: string): Generator<string> {
  const abs = join(ROOT, rel);
  if (!existsSync(abs)) return;
  if (!statSync(abs).isDirectory()) {
    yield rel;
    return;
  }
  for (const entry of readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name === 'node_modules' || entry.name === 'test' || (entry.isDirectory() && entry.name.startsWith('.'))) continue;
    const child = `${rel}/${entry.name}`;
    if (entry.isDirectory()) yield* filesUnder(child);
    else if (entry.isFile() && !entry.name.endsWith('.test.ts')) yield child;
  }
}

/** The fingerprint of the seeded template the current sources would build (sha256, hex). */
export function seededTemplateFingerprint(): string {
  const hash = createHash('sha256').update(`pglite ${pgliteVersion()}\0`);
  for (const top of FINGERPRINTED) {
    for (const file of filesUnder(top)) {
      const content = readFileSync(join(ROOT, file));
      hash.update(`${file}\0${content.length}\0`).update(content);
    }
  }
  return hash.digest('hex');
}

/** Where the seeded template of `fingerprint` lives: beside the initdb template (node_modules/.cache/vat-embedded-pg). */
export function seededTemplateDir(fingerprint: string): string {
  return join(dirname(embeddedTemplateDir()), `${PREFIX}${fingerprint.slice(0, 16)}`);
}

/** True when the seeded template of `fingerprint` is complete and was built for exactly that fingerprint. */
export function hasSeededTemplate(fingerprint: string): boolean {
  return embeddedTemplateMarker(seededTemplateDir(fingerprint))?.fingerprint === fingerprint;
}

/**
 * The template clusters a new DATA_DIR may start from, best first: the seeded template of the current
 * sources when it is built, then the initdb template. Undefined when DATA_DIR already holds a database
 * (nothing is copied then, and nothing is fingerprinted).
 */
export function templatesFor(dataDir: string): { templates: string[]; seeded: boolean } | undefined {
  if (existsSync(join(dataDir, 'pg'))) return undefined;
  const fingerprint = seededTemplateFingerprint();
  const seeded = hasSeededTemplate(fingerprint);
  return { templates: seeded ? [seededTemplateDir(fingerprint), embeddedTemplateDir()] : [embeddedTemplateDir()], seeded };
}

/** Removes seeded templates of other fingerprints (older sources), keeping `keep`. */
export function pruneSeededTemplates(keep: string): void {
  const parent = dirname(keep);
  if (!existsSync(parent)) return;
  for (const name of readdirSync(parent)) {
    const path = join(parent, name);
    if (name.startsWith(PREFIX) && path !== keep && !name.includes('.build-')) rmSync(path, { recursive: true, force: true });
  }
}
