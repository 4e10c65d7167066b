import { createClient, type Client, type Interceptor, type Transport } from '@connectrpc/connect';
import { CalculationService, GovernedCalculationService, SourceService, TaxClassService, ExchangeRateService } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { ClassificationService } from '@vat/gen/vat/classification/v1/classification_service_pb';
import { TaxRegistrationService, UnionOssReportService } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { SmeEligibilityService, ThresholdService } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import { SupplyLedgerService } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { ReadinessService } from '@vat/gen/vat/platform/v1/readiness_service_pb';
import type { ServiceName } from './config';
import { PRINCIPAL_HEADERS } from './principal';
import { OpenTransactionError, insideTransaction } from './transaction';

/** Typed RPC clients for every service, whatever the transport underneath. */
export type Clients = {
  calculation: Client<typeof CalculationService>;
  governed: Client<typeof GovernedCalculationService>;
  sources: Client<typeof SourceService>;
  taxClasses: Client<typeof TaxClassService>;
  exchangeRates: Client<typeof ExchangeRateService>;
  classification: Client<typeof ClassificationService>;
  registrations: Client<typeof TaxRegistrationService>;
  unionOss: Client<typeof UnionOssReportService>;
  sme: Client<typeof SmeEligibilityService>;
  thresholds: Client<typeof ThresholdService>;
  ledger: Client<typeof SupplyLedgerService>;
  readiness: Record<ServiceName, Client<typeof ReadinessService>>;
};

/** Adds the shared internal token to every outgoing call (distributed mode). */
export function internalTokenInterceptor(token: string | undefined): Interceptor {
  return (next) => async (req) => {
    if (token) req.header.set(PRINCIPAL_HEADERS.token, token);
    return next(req);
  };
}

/**
 * A transport resolved on first use, so clients can be built before the services they reach exist
 * (the composition root builds clients first and hands them to every service's deps).
 */
export function lazyTransport(resolve: () => Transport): Transport {
  let t: Transport | undefined;
  const get = () => (t ??= resolve());
  return {
    unary: (...args) => get().unary(...args),
    stream: (...args) => get().stream(...args),
  };
}

/**
 * A transport that refuses to send while the caller holds an open database transaction (see
 * `OpenTransactionError`): in every mode, so such a call fails a test instead of freezing a process.
 */
export function outsideTransactionsOnly(t: Transport): Transport {
  const refuse = (kind: string, method: { name: string; parent: { typeName: string } }) =>
    Promise.reject(new OpenTransactionError(`calling ${method.parent.typeName}/${method.name} (${kind})`));
  return {
    unary: (method, ...rest) => (insideTransaction() ? refuse('RPC', method) : t.unary(method, ...rest)),
    stream: (method, ...rest) => (insideTransaction() ? refuse('streaming RPC', method) : t.stream(method, ...rest)),
  };
}

export function createClients(transportFor: (service: ServiceName) => Transport): Clients {
  return buildClients((name) => outsideTransactionsOnly(transportFor(name)));
}

function buildClients(transportFor: (service: ServiceName) => Transport): Clients {
  const calc = transportFor('calculation');
  return {
    calculation: createClient(CalculationService, calc),
    governed: createClient(GovernedCalculationService, calc),
    sources: createClient(SourceService, calc),
    taxClasses: createClient(TaxClassService, calc),
    exchangeRates: createClient(ExchangeRateService, calc),
    classification: createClient(ClassificationService, transportFor('classification')),
    registrations: createClient(TaxRegistrationService, transportFor('compliance-reports')),
    unionOss: createClient(UnionOssReportService, transportFor('compliance-reports')),
    sme: createClient(SmeEligibilityService, transportFor('thresholds')),
    thresholds: createClient(ThresholdService, transportFor('thresholds')),
    ledger: createClient(SupplyLedgerService, transportFor('ledger')),
    readiness: {
      calculation: createClient(ReadinessService, calc),
      classification: createClient(ReadinessService, transportFor('classification')),
      'compliance-reports': createClient(ReadinessService, transportFor('compliance-reports')),
      thresholds: createClient(ReadinessService, transportFor('thresholds')),
      ledger: createClient(ReadinessService, transportFor('ledger')),
    },
  };
}
