import { SERVICE_NAMES, type ServiceName } from '@vat/platform/config';

/** What one process runs: everything (`all`), the gateway, or one service. */
export type Mode = 'all' | 'gateway' | ServiceName;

export function isMode(value: string | undefined): value is Mode {
  return value === 'all' || value === 'gateway' || (SERVICE_NAMES as readonly string[]).includes(value ?? '');
}
