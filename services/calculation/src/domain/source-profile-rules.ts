import type { CreateSourceRequest, UpdateSourceRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { hasControlCharacter } from '@vat/platform/control-characters';
import { isIsoCountry } from '@vat/platform/countries';
import { isKnownCurrency } from '@vat/platform/currencies';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { SourceProfileChanges } from '../repositories/source-profiles';

export const MAX_ACTIVE_PROFILES = 100;
export const MAX_STORED_PROFILES = 500;
const CHANNEL_TYPES = ['owned_store', 'marketplace', 'subscription', 'pos', 'wholesale', 'test', 'other'] as const;

// Labels are plain text: no control characters (PostgreSQL cannot even store NUL).
export function checkDisplayName(v: string): void {
  if (v.trim().length === 0 || v.length > 200 || hasControlCharacter(v)) throw invalidArgument('invalid_display_name', 'display_name must be 1 to 200 characters without control characters.');
}

export function checkChannel(v: string): void {
  if (!(CHANNEL_TYPES as readonly string[]).includes(v)) throw invalidArgument('invalid_channel_type', `channel_type must be one of ${CHANNEL_TYPES.join(', ')}.`);
}

/** An optional text field: '' clears it (null), undefined keeps it, anything else must pass `check`. */
function optionalField(value: string | undefined, field: string, check: (v: string) => boolean, rule: string): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === '') return null;
  if (!check(value)) throw invalidArgument(`invalid_${field}`, `${field} ${rule}`);
  return value;
}

const isCountry = (v: string) => /^[A-Z]{2}$/.test(v) && isIsoCountry(v);

/** Validates every field of a create or update request into the repository's change set. */
export function profileChanges(req: CreateSourceRequest | UpdateSourceRequest): SourceProfileChanges {
  if (req.displayName !== undefined) checkDisplayName(req.displayName);
  if (req.channelType !== undefined) checkChannel(req.channelType);
  return {
    displayName: req.displayName,
    channelType: req.channelType,
    platform: optionalField(req.platform, 'platform', (v) => v.length <= 100 && !hasControlCharacter(v), 'must be at most 100 characters without control characters.'),
    defaultCountry: optionalField(req.defaultCountry, 'default_country', isCountry, 'must be an ISO 3166-1 alpha-2 code.'),
    defaultCurrency: optionalField(req.defaultCurrency, 'default_currency', (v) => /^[A-Z]{3}$/.test(v) && isKnownCurrency(v), 'must be an ISO 4217 code.'),
    supplierEstablishmentCountry: optionalField(req.supplierEstablishmentCountry, 'supplier_establishment_country', isCountry, 'must be an ISO 3166-1 alpha-2 code.'),
    dispatchCountry: optionalField(req.dispatchCountry, 'dispatch_country', isCountry, 'must be an ISO 3166-1 alpha-2 code.'),
    marketplaceDeemedSupplier: req.marketplaceDeemedSupplier,
    active: req.active,
  };
}
