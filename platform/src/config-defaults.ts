/**
 * Defaults of the configuration that code outside ./config needs without loading it (the embedded database's
 * early start in deploy/src/prestart.ts).
 */

/** DATA_DIR when unset: the one-process mode's data directory, relative to the working directory. */
export const DEFAULT_DATA_DIR = './data';
