import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DATA_KEY_FILE, FieldCipher, parseDataEncryptionKey, readOrCreateKeyFile, requireDataEncryptionKey } from './crypto';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'vat-key-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('DATA_ENCRYPTION_KEY parsing', () => {
  it('accepts 32 bytes as 64 hex digits or canonical base64, and both name the same key', () => {
    const raw = randomBytes(32);
    expect(parseDataEncryptionKey(raw.toString('hex'))).toEqual(raw);
    expect(parseDataEncryptionKey(raw.toString('hex').toUpperCase())).toEqual(raw);
    expect(parseDataEncryptionKey(`${raw.toString('base64')}\n`)).toEqual(raw);
  });

  it.each([
    ['too short hex', 'ab'.repeat(31)],
    ['too long hex', 'ab'.repeat(33)],
    ['31 bytes of base64', randomBytes(31).toString('base64')],
    ['33 bytes of base64', randomBytes(33).toString('base64')],
    ['base64url alphabet', randomBytes(32).toString('base64url')],
    ['a passphrase', 'correct horse battery staple correct horse'],
    ['a placeholder', 'REPLACE_ME-32-random-bytes-as-base64-or-hex'],
    ['all zero', '00'.repeat(32)],
    ['one byte repeated', Buffer.alloc(32, 7).toString('base64')],
  ])('refuses %s, without echoing the text', (_n, text) => {
    let message = '';
    try {
      parseDataEncryptionKey(text);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/DATA_ENCRYPTION_KEY must be 32 random bytes/);
    expect(message).not.toContain(text.trim());
  });

  it('a missing key is a start-up failure naming the service and the variable', () => {
    expect(() => requireDataEncryptionKey(undefined, 'compliance-reports')).toThrow(/DATA_ENCRYPTION_KEY is required to run compliance-reports/);
    expect(() => requireDataEncryptionKey('  ', 'compliance-reports')).toThrow(/DATA_ENCRYPTION_KEY is required/);
  });
});

describe('embedded key file', () => {
  it('is generated once with mode 0600 and read back on the next start', () => {
    const dir = join(tempDir(), 'nested', 'data');
    const first = readOrCreateKeyFile(dir);
    const path = join(dir, DATA_KEY_FILE);
    expect(first).toEqual({ key: expect.any(String), path, created: true });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(parseDataEncryptionKey(first.key)).toHaveLength(32);
    expect(readOrCreateKeyFile(dir)).toEqual({ key: first.key, path, created: false });
    expect(readFileSync(path, 'utf8').trim()).toBe(first.key);
  });

  it('refuses a key file other users can read, and a corrupt one, naming the file', () => {
    const dir = tempDir();
    readOrCreateKeyFile(dir);
    const path = join(dir, DATA_KEY_FILE);
    chmodSync(path, 0o644);
    expect(() => readOrCreateKeyFile(dir)).toThrow(/accessible to other users.*chmod 600/);
    writeFileSync(path, 'garbage\n', { mode: 0o600 });
    chmodSync(path, 0o600);
    expect(() => readOrCreateKeyFile(dir)).toThrow(new RegExp(`${DATA_KEY_FILE}: DATA_ENCRYPTION_KEY must be`));
  });
});

describe('FieldCipher (AES-256-GCM)', () => {
  const cipher = new FieldCipher(randomBytes(32));

  it('round-trips any string under its context; the stored form is version, IV, tag, ciphertext', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 64 }), fc.string({ maxLength: 40 }), (value, context) => {
        const sealed = cipher.encrypt(value, context);
        expect(sealed[0]).toBe(1);
        expect(sealed.length).toBe(1 + 12 + 16 + Buffer.byteLength(value));
        expect(cipher.decrypt(sealed, context)).toBe(value);
      }),
    );
  });

  it('uses a fresh IV per value: the same plaintext never encrypts the same way twice', () => {
    const a = cipher.encrypt('DE123456789', 'ctx');
    const b = cipher.encrypt('DE123456789', 'ctx');
    expect(a.subarray(1, 13).equals(b.subarray(1, 13))).toBe(false);
    expect(a.equals(b)).toBe(false);
    expect(a.includes(Buffer.from('DE123456789'))).toBe(false);
  });

  it('refuses another context (account or field), another key, and any altered byte', () => {
    const sealed = cipher.encrypt('DE123456789', 'account:1/field:vat_registration_number');
    expect(() => cipher.decrypt(sealed, 'account:2/field:vat_registration_number')).toThrow(/does not authenticate/);
    expect(() => cipher.decrypt(sealed, 'account:1/field:ioss_intermediary_number')).toThrow(/does not authenticate/);
    expect(() => new FieldCipher(randomBytes(32)).decrypt(sealed, 'account:1/field:vat_registration_number')).toThrow(/does not authenticate/);
    for (let i = 1; i < sealed.length; i++) {
      const altered = Buffer.from(sealed);
      altered[i] = altered[i]! ^ 0x01;
      expect(() => cipher.decrypt(altered, 'account:1/field:vat_registration_number')).toThrow();
    }
    const otherVersion = Buffer.from(sealed);
    otherVersion[0] = 2;
    expect(() => cipher.decrypt(otherVersion, 'account:1/field:vat_registration_number')).toThrow(/unknown format/);
    expect(() => cipher.decrypt(sealed.subarray(0, 20), 'x')).toThrow(/unknown format/);
  });
});
