import { createRequire } from 'node:module';
import { normalizeVatNumber } from '@vat/platform/vat-number-digest';
import { invalidArgument } from '@vat/platform/rpc-errors';
import { MAX_IDENTIFIER_LENGTH, MEMBER_STATES } from './identifiers';

/** VIES codes of the 27 Member States (EL for Greece) → ISO code, as stdnum names its validators. */
const STATES = new Map(MEMBER_STATES.map((m) => [m.vatPrefix, m.code]));

export type VatNumberFormat =
  | { ok: true; number: string; state: string; body: string }
  | { ok: false; number: string; state: string; reason: string };

/**
 * A caller's VAT number, normalized; refuses (400 `invalid_vat_number`) only what cannot be a number at
 * all, so that every plausible input gets an answer that is stored as evidence.
 */
export function parseVatNumberInput(raw: string): string {
  const number = normalizeVatNumber(raw);
  if (number === '' || number.length > MAX_IDENTIFIER_LENGTH || !/^[A-Z0-9+*]+$/.test(number)) {
    throw invalidArgument('invalid_vat_number', `vat_number must be a VAT number with its country prefix (for example DE123456789), at most ${MAX_IDENTIFIER_LENGTH} letters and digits; spaces, dots and hyphens are ignored.`);
  }
  return number;
}

const require = createRequire(import.meta.url);
let rules: typeof import('stdnum').euVat | undefined;
/** stdnum's EU VAT validators, loaded by the first check rather than at start (the package holds every country's rules). */
function euVatRules(): typeof import('stdnum').euVat {
  rules ??= (require('stdnum') as typeof import('stdnum')).euVat;
  return rules;
}

/**
 * The offline test before VIES: an EU Member State's prefix and that State's format and check digits
 * (python-stdnum's rules as ported by the `stdnum` package). A failure is `format_invalid`, never sent to VIES.
 */
export function checkVatNumberFormat(number: string): VatNumberFormat {
  const state = number.slice(0, 2);
  const iso = STATES.get(state);
  if (iso === undefined) return { ok: false, number, state: /^[A-Z]{2}$/.test(state) ? state : 'XX', reason: `${state} is not the VAT prefix of an EU Member State (Greece is EL).` };
  const validator = euVatRules()[iso]?.[0];
  if (!validator) return { ok: false, number, state, reason: `no format rule for ${state}` };
  const r = validator.validate(number.slice(2));
  if (!r.isValid) return { ok: false, number, state, reason: `${r.error?.message ?? 'The number is not valid.'} (${MEMBER_STATES.find((m) => m.vatPrefix === state)!.vatFormat})` };
  return { ok: true, number, state, body: r.compact };
}
