import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The file `npm start` keeps its generated key in, inside DATA_DIR. */
export const DATA_KEY_FILE = 'data-encryption.key';

const KEY_BYTES = 32;
const FORMAT_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;

const KEY_RULE = 'DATA_ENCRYPTION_KEY must be 32 random bytes written as 64 hex digits or 44 base64 characters (e.g. `openssl rand -base64 32`)';

/**
 * The 32-byte key from its text form (64 hex digits, or canonical base64). The message of a
 * refusal never contains the text, so a misconfigured secret cannot end up in a log.
 */
export function parseDataEncryptionKey(text: string): Buffer {
  const t = text.trim();
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(t)) key = Buffer.from(t, 'hex');
  else if (/^[A-Za-z0-9+/]{43}=$/.test(t)) {
    const b = Buffer.from(t, 'base64');
    if (b.toString('base64') === t) key = b;
  }
  if (!key || key.length !== KEY_BYTES) throw new Error(KEY_RULE);
  if (key.every((byte) => byte === key[0])) throw new Error(`${KEY_RULE}; 32 identical bytes are not a key`);
  return key;
}

/** The configured key, or a start-up failure that says what to set. */
export function requireDataEncryptionKey(text: string | undefined, service: string): Buffer {
  if (text === undefined || text.trim() === '') {
    throw new Error(`DATA_ENCRYPTION_KEY is required to run ${service}: it encrypts VAT identifiers at rest. ${KEY_RULE}.`);
  }
  return parseDataEncryptionKey(text);
}

function readKeyFile(path: string): string {
  const st = statSync(path);
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
    throw new Error(`${path} is accessible to other users (mode ${(st.mode & 0o777).toString(8)}); run \`chmod 600 ${path}\``);
  }
  const text = readFileSync(path, 'utf8').trim();
  try {
    parseDataEncryptionKey(text);
  } catch (err) {
    throw new Error(`${path}: ${(err as Error).message}`);
  }
  return text;
}

/**
 * The embedded mode's key: read from `DATA_DIR/data-encryption.key`, or generated there once
 * (mode 0600, written to a temporary file and linked into place, so concurrent starts agree on
 * one key and nobody reads a half-written file).
 */
export function readOrCreateKeyFile(dataDir: string): { key: string; path: string; created: boolean } {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, DATA_KEY_FILE);
  try {
    return { key: readKeyFile(path), path, created: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, `${randomBytes(KEY_BYTES).toString('base64')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  let created = true;
  try {
    linkSync(tmp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    created = false;
  } finally {
    unlinkSync(tmp);
  }
  return { key: readKeyFile(path), path, created };
}

/**
 * AES-256-GCM for single field values. Each value gets a fresh random 96-bit IV; the stored form
 * is `version (1) | iv (12) | tag (16) | ciphertext`. `context` is authenticated but not stored:
 * a value only decrypts under the context (account, field) it was sealed for.
 */
export class FieldCipher {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error('FieldCipher needs a 32-byte key');
    this.key = Buffer.from(key);
  }

  encrypt(plaintext: string, context: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([FORMAT_VERSION]), iv, cipher.getAuthTag(), body]);
  }

  /** The plaintext, or an error when the value was sealed under another key or context or was altered. */
  decrypt(sealed: Buffer, context: string): string {
    if (sealed.length < HEADER_BYTES || sealed[0] !== FORMAT_VERSION) throw new Error('encrypted value has an unknown format');
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const tag = sealed.subarray(1 + IV_BYTES, HEADER_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(sealed.subarray(HEADER_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('encrypted value does not authenticate: another key, another context, or altered');
    }
  }
}
