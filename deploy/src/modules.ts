import type { ServiceName } from '@vat/platform/config';
import type { AnyServiceModule } from '@vat/platform/service-module';
import { calculationModule } from '@vat/calculation/module';
import { classificationModule } from '@vat/classification/module';
import { complianceReportsModule } from '@vat/compliance-reports/module';
import { thresholdsModule } from '@vat/thresholds/module';
import { ledgerModule } from '@vat/ledger/module';

export const MODULES: Record<ServiceName, AnyServiceModule> = {
  calculation: calculationModule,
  classification: classificationModule,
  'compliance-reports': complianceReportsModule,
  thresholds: thresholdsModule,
  ledger: ledgerModule,
};
