import { createClient, type Client, type Interceptor, type Transport } from '@connectrpc/connect';
import { CalculationService, GovernedCalculationService, SourceService, TaxClassService, ExchangeRateService } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { ClassificationService } from '@vat/gen/vat/classification/v1/classification_service_pb';
import { TaxRegistrationService, UnionOssReportService, VatNumberService } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { SmeEligibilityService, ThresholdService } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import { SupplyLedgerService } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { ReadinessService } from '@vat/gen/vat/platform/v1/readiness_service_pb';
import { SERVICE_NAMES, type ServiceName } from './config';
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
  vatNumbers: Client<typeof VatNumberService>;
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

/** The service that answers each client (a service's `uses` names these services). */
export const CLIENT_OWNERS = {
  calculation: 'calculation',
  governed: 'calculation',
  sources: 'calculation',
  taxClasses: 'calculation',
  exchangeRates: 'calculation',
  classification: 'classification',
  registrations: 'compliance-reports',
  unionOss: 'compliance-reports',
  vatNumbers: 'compliance-reports',
  sme: 'thresholds',
  thresholds: 'thresholds',
  ledger: 'ledger',
} as const satisfies Record<Exclude<keyof Clients, 'readiness'>, ServiceName>;

export type ClientName = keyof typeof CLIENT_OWNERS;

/** The names of the clients that services `S` answer. */
type ClientNamesOf<S extends ServiceName> = { [K in ClientName]: (typeof CLIENT_OWNERS)[K] extends S ? K : never }[ClientName];

/** The clients of the services `S`: all a service that declares `uses: S[]` can reach (the gateway has all). */
export type ClientsOf<S extends ServiceName> = Pick<Clients, ClientNamesOf<S>>;

/** Every client (the gateway's), or only those of the services in `uses` (a service's: see `ServiceModule.uses`). */
export function createClients(transportFor: (service: ServiceName) => Transport): Clients;
export function createClients<S extends ServiceName>(transportFor: (service: ServiceName) => Transport, uses: readonly S[], caller: ServiceName): ClientsOf<S>;
export function createClients(unguarded: (service: ServiceName) => Transport, uses?: readonly ServiceName[], caller?: ServiceName): Clients | ClientsOf<ServiceName> {
  const transportFor = (service: ServiceName) => outsideTransactionsOnly(unguarded(service));
  if (uses === undefined) return allClients(transportFor);
  const built: Partial<Record<ClientName, unknown>> = {};
  for (const [name, owner] of Object.entries(CLIENT_OWNERS) as [ClientName, ServiceName][]) {
    if (uses.includes(owner)) built[name] = createClient(DESCRIPTORS[name], transportFor(owner));
  }
  // The types already refuse an undeclared client; this catches a cast or an `any` on the way.
  return new Proxy(built, {
    get(target, prop, receiver) {
      if (prop === 'readiness') throw new Error(`${caller} holds no readiness clients (only the gateway asks services whether they are ready)`);
      if (typeof prop === 'string' && !Object.hasOwn(target, prop) && Object.hasOwn(CLIENT_OWNERS, prop)) {
        throw new Error(`${caller} calls ${CLIENT_OWNERS[prop as ClientName]} (${prop}) without declaring it: add it to the module's uses`);
      }
      return Reflect.get(target, prop, receiver);
    },
  }) as ClientsOf<ServiceName>;
}

const DESCRIPTORS = {
  calculation: CalculationService,
  governed: GovernedCalculationService,
  sources: SourceService,
  taxClasses: TaxClassService,
  exchangeRates: ExchangeRateService,
  classification: ClassificationService,
  registrations: TaxRegistrationService,
  unionOss: UnionOssReportService,
  vatNumbers: VatNumberService,
  sme: SmeEligibilityService,
  thresholds: ThresholdService,
  ledger: SupplyLedgerService,
} as const satisfies Record<ClientName, unknown>;

function allClients(transportFor: (service: ServiceName) => Transport): Clients {
  const clients = Object.fromEntries((Object.entries(CLIENT_OWNERS) as [ClientName, ServiceName][]).map(([name, owner]) => [name, createClient(DESCRIPTORS[name], transportFor(owner))]));
  const readiness = Object.fromEntries(SERVICE_NAMES.map((name) => [name, createClient(ReadinessService, transportFor(name))]));
  return { ...clients, readiness } as Clients;
}
