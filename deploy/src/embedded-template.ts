/**
 * `postinstall` (after deploy/bundle.mjs): prepares the first `npm start`. It builds the embedded database's
 * template clusters: the initdb template, once per PGlite version (platform/src/embedded-pg-template.ts), and
 * the seeded template, once per fingerprint of the sources (deploy/src/seeded-template.ts): a new DATA_DIR then
 * starts as a copy of a database that is already migrated and seeded (the first one by taking the template's spare
 * copy, made here, with one rename). A failure only costs start time (the
 * start migrates and seeds itself), so it warns and exits 0.
 */
import { buildEmbeddedTemplate, embeddedTemplateDir, replenishSpare } from '@vat/platform/embedded-pg-template';
import { buildSeededTemplate } from './seeded-template-build';

let started = performance.now();
try {
  const outcome = await buildEmbeddedTemplate();
  console.error(`[postinstall] embedded database template ${outcome === 'built' ? `built in ${Math.round(performance.now() - started)} ms` : 'already present'}: ${embeddedTemplateDir()}`);
  started = performance.now();
  const seeded = await buildSeededTemplate();
  console.error(`[postinstall] seeded embedded database template ${seeded.outcome === 'built' ? `built in ${Math.round(performance.now() - started)} ms` : 'already present'}: ${seeded.dir}`);
  // Its spare copy: the first new DATA_DIR takes it with one rename (and makes the next one meanwhile).
  if (await replenishSpare(seeded.dir)) console.error(`[postinstall] spare copy of the seeded template made: ${seeded.dir}/spare`);
} catch (err) {
  console.error(`[postinstall] warning: could not build the embedded database templates (a new DATA_DIR is then migrated and seeded at its first start): ${err instanceof Error ? err.message : String(err)}`);
}
