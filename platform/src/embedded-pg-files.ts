import { chmodSync, lstatSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Creates `dir` (and missing parents) accessible to this user only, or makes an existing one so. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/**
 * Sets every directory under `path` to 0700 and every file to 0600: files written by an older version,
 * and those PGlite unpacks with explicit modes (0666) when it creates a database, which the umask does
 * not cover. Symbolic links are left alone.
 */
export function makeTreePrivate(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  const mode = stat.isDirectory() ? 0o700 : 0o600;
  if ((stat.mode & 0o777) !== mode) chmodSync(path, mode);
  if (stat.isDirectory()) for (const name of readdirSync(path)) makeTreePrivate(join(path, name));
}

/** Writes a JSON file readable by this user only, atomically (readers never see half a file). */
export function writePrivateJson(file: string, value: unknown): void {
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(value), { mode: 0o600 });
  chmodSync(partial, 0o600);
  renameSync(partial, file);
}
