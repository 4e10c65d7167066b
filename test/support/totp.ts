import { totpCode } from '@vat/classification/domain/totp';

/**
 * A TOTP code with at least `needMs` of its 30-second step left, so a CLI started now (a few seconds) still
 * sees the current step (the service accepts only the current step's code). Waits for the next step only
 * when the current one ends too soon.
 */
export async function freshTotpCode(secret: string, needMs = 15_000): Promise<string> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < needMs) await new Promise((r) => setTimeout(r, left + 200));
  return totpCode(secret, new Date());
}
