/**
 * `postinstall`: builds the embedded database's template cluster once per PGlite version (see
 * platform/src/embedded-pg-template.ts), so `npm start` on a new DATA_DIR skips initdb. A failure only
 * costs start time (PGlite then initialises each new directory itself), so it warns and exits 0.
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
