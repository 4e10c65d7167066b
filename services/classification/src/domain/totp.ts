import { Secret, TOTP } from 'otpauth';

/** RFC 6238 parameters every authenticator app supports: HMAC-SHA1, 6 digits, 30-second steps. */
const TOTP_PERIOD_SECONDS = 30;
const DIGITS = 6;
const ISSUER = 'EU VAT service';

function totp(secretBase32: string, label = 'operator'): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

/** A fresh 160-bit secret (base32) and the otpauth:// URI an authenticator app reads. */
export function newTotpSecret(operator: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totp(secret, operator).toString() };
}

type TotpCheck = { ok: true; step: number } | { ok: false; reason: 'totp_invalid' | 'totp_stale' };

/**
 * Checks a code inside the re-authentication window: only the code of the current 30-second step is
 * accepted (so it is at most 30 s old). A code of an earlier step is `totp_stale`; anything else,
 * including a code of a future step, is `totp_invalid`. Reuse is decided by the caller from `step`.
 */
export function checkTotp(secretBase32: string, code: string, at: Date): TotpCheck {
  if (!/^\d{6}$/.test(code)) return { ok: false, reason: 'totp_invalid' };
  const t = totp(secretBase32);
  const delta = t.validate({ token: code, timestamp: at.getTime(), window: 4 });
  if (delta === null || delta > 0) return { ok: false, reason: 'totp_invalid' };
  if (delta < 0) return { ok: false, reason: 'totp_stale' };
  return { ok: true, step: t.counter({ timestamp: at.getTime() }) };
}

/** The code of a secret at an instant (tests and the operator's own tooling). */
export function totpCode(secretBase32: string, at: Date): string {
  return totp(secretBase32).generate({ timestamp: at.getTime() });
}
