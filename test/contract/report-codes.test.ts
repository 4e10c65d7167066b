import { describe, expect, it } from 'vitest';
import { IOSS_EXCLUSION_CODES as DOCUMENTED_IOSS_CODES, UNION_OSS_EXCLUSION_REASONS, UNION_OSS_WARNING_CODES } from '@vat/gateway/openapi/report-components';
import { IOSS_EXCLUSION_CODES } from '@vat/compliance-reports/domain/ioss-months';
import { EXCLUSION_REASONS, WARNING_CODES } from '@vat/compliance-reports/domain/union-oss-return';

/**
 * The gateway documents the report documents of compliance-reports without importing it (the gateway never
 * imports a service): the codes its report components enumerate are compared here with the service's own
 * lists, so a new code fails this test before a generated client meets it.
 */
describe('the codes of the OpenAPI report components are the ones compliance-reports writes', () => {
  it('Union OSS warning codes', () => {
    expect([...UNION_OSS_WARNING_CODES].sort()).toEqual([...WARNING_CODES].sort());
  });

  it('Union OSS exclusion reasons', () => {
    expect([...UNION_OSS_EXCLUSION_REASONS].sort()).toEqual([...EXCLUSION_REASONS].sort());
  });

  it('IOSS exclusion codes', () => {
    expect([...DOCUMENTED_IOSS_CODES].sort()).toEqual([...IOSS_EXCLUSION_CODES].sort());
  });
});
