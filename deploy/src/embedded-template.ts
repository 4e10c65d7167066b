/**
 * `postinstall`: prepares the first `npm start`. It builds the embedded database's template cluster
 * once per PGlite version (see platform/src/embedded-pg-template.ts), so a new DATA_DIR skips initdb,
 * and loads every module `npm start` runs once, which fills tsx's transform cache (the first start
 * otherwise spends about 0.8 s compiling TypeScript). A failure only costs start time, so it warns
 * and exits 0.
 */
import { buildEmbeddedTemplate, embeddedTemplateDir } from '@vat/platform/embedded-pg-template';

const started = performance.now();
try {
  const outcome = await buildEmbeddedTemplate();
  const ms = Math.round(performance.now() - started);
  console.error(`[postinstall] embedded database template ${outcome === 'built' ? `built in ${ms} ms` : 'already present'}: ${embeddedTemplateDir()}`);
} catch (err) {
  console.error(`[postinstall] warning: could not build the embedded database template (npm start will run initdb on a new DATA_DIR instead): ${err instanceof Error ? err.message : String(err)}`);
}

const warm = performance.now();
try {
  await import('./build');
  const { loadModule } = await import('./module-loader');
  const { SERVICE_NAMES } = await import('@vat/platform/config');
  for (const name of SERVICE_NAMES) await loadModule(name);
  await import('@vat/gateway/start');
  console.error(`[postinstall] TypeScript transform cache warmed in ${Math.round(performance.now() - warm)} ms`);
} catch (err) {
  console.error(`[postinstall] warning: could not warm the TypeScript transform cache: ${err instanceof Error ? err.message : String(err)}`);
}
