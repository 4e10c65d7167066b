import type { FieldCipher } from '@vat/platform/crypto';
import { vatNumberDigest } from '@vat/platform/vat-number-digest';

/** Country prefix, asterisks, at most the last 4 characters (never more than half of the rest), like registrations. */
export function maskVatNumber(value: string): string {
  const chars = [...value];
  if (chars.length <= 2) return '*'.repeat(chars.length);
  const rest = chars.length - 2;
  const visible = Math.min(4, Math.floor(rest / 2));
  return chars.slice(0, 2).join('') + '*'.repeat(rest - visible) + chars.slice(chars.length - visible).join('');
}

/**
 * What the ledger keeps of a customer's (normalized) VAT number: ciphertext bound to the account, the
 * mask responses show, and the keyed digest events carry. The number itself is never stored or published.
 */
export function sealCustomerVatNumber(deps: { cipher: FieldCipher; vatNumberDigestKey: Buffer }, accountId: bigint, number: string) {
  return {
    digest: vatNumberDigest(deps.vatNumberDigestKey, number),
    masked: maskVatNumber(number),
    encrypted: deps.cipher.encrypt(number, `ledger.supply_event/customer_vat_number/account/${accountId}`),
  };
}
