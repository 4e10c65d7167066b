import { createHmac, hkdfSync } from 'node:crypto';

/**
 * A customer's VAT number as every service compares it: upper case, without spaces, dots or hyphens,
 * Greece's ISO prefix GR written as its VAT prefix EL (the form VIES uses).
 */
export function normalizeVatNumber(raw: string): string {
  const v = raw.replace(/[\s.\-]/g, '').toUpperCase();
  return v.startsWith('GR') ? `EL${v.slice(2)}` : v;
}

/**
 * The key of VAT-number digests, derived from the data encryption key (HKDF-SHA256), so every process
 * that holds DATA_ENCRYPTION_KEY computes the same digest and none needs a second secret.
 */
export function vatNumberDigestKey(dataEncryptionKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', dataEncryptionKey, Buffer.alloc(0), 'vat/customer-vat-number-digest/v1', 32));
}

/**
 * The keyed digest (HMAC-SHA256, hex) of a normalized VAT number: what events and projections carry
 * instead of the number. Without the key it cannot be reversed by trying the (small) space of numbers.
 */
export function vatNumberDigest(key: Buffer, raw: string): string {
  return createHmac('sha256', key).update(normalizeVatNumber(raw), 'utf8').digest('hex');
}
