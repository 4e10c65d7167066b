import type { ServiceName } from '@vat/platform/config';
import type { AnyServiceModule } from '@vat/platform/service-module';

/**
 * Loads one service module on demand, so a process imports only what it runs: a distributed
 * service process holds its own service's code (measured at start: ledger alone 126 MB RSS, every
 * module plus the gateway and PGlite 197 MB). `./modules` keeps the static map for the admin CLI and tests.
 */
export async function loadModule(name: ServiceName): Promise<AnyServiceModule> {
  switch (name) {
    case 'calculation':
      return (await import('@vat/calculation/module')).calculationModule;
    case 'classification':
      return (await import('@vat/classification/module')).classificationModule;
    case 'compliance-reports':
      return (await import('@vat/compliance-reports/module')).complianceReportsModule;
    case 'thresholds':
      return (await import('@vat/thresholds/module')).thresholdsModule;
    case 'ledger':
      return (await import('@vat/ledger/module')).ledgerModule;
  }
}
