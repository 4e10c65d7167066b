import { FieldCipher } from '@vat/platform/crypto';
import { maskIdentifier } from './domain/identifiers';

type IdentifierField = 'vat_registration_number' | 'ioss_intermediary_number';
type SealedIdentifier = { masked: string; encrypted: Buffer };

/** The authenticated context of a stored identifier: a ciphertext only opens for its account and field. */
function context(accountId: bigint, field: IdentifierField): string {
  return `compliance_reports.tax_registration/${field}/account/${accountId}`;
}

/** Turns a full identifier into what is stored (ciphertext) and shown (mask); the plaintext goes nowhere else. */
export class IdentifierVault {
  constructor(private readonly cipher: FieldCipher) {}

  seal(accountId: bigint, field: IdentifierField, value: string): SealedIdentifier {
    return { masked: maskIdentifier(value), encrypted: this.cipher.encrypt(value, context(accountId, field)) };
  }

  /** A customer's VAT number of a VIES check: its own context, so it never opens as a registration's. */
  sealCustomerVatNumber(accountId: bigint, value: string): SealedIdentifier {
    return { masked: maskIdentifier(value), encrypted: this.cipher.encrypt(value, `compliance_reports.vat_number_check/vat_number/account/${accountId}`) };
  }

  /** The full identifier, for the few internal uses that need it (filing exports); never for a response. */
  open(accountId: bigint, field: IdentifierField, encrypted: Buffer): string {
    return this.cipher.decrypt(encrypted, context(accountId, field));
  }
}
