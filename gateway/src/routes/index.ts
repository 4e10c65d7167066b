import type { Clients } from '@vat/platform/clients';
import type { RouteTable } from '../route';
import { calculationRoutes } from './calculation';
import { classificationRoutes } from './classification';
import { governedRoutes } from './governed';
import { referenceRoutes } from './reference';
import { registrationRoutes } from './registrations';
import { reportRoutes } from './reports';
import { sourceRoutes } from './sources';
import { supplyEventRoutes, type IntegrationOwnership } from './supply-events';
import { thresholdRoutes } from './thresholds';
import { transactionRoutes } from './transactions';

/** Every resource's route table, in one list the gateway registers. */
export function allRoutes(clients: Clients, integrationOwned: IntegrationOwnership): RouteTable {
  return [
    ...referenceRoutes(clients),
    ...classificationRoutes(clients, integrationOwned),
    ...calculationRoutes(clients),
    ...governedRoutes(clients),
    ...transactionRoutes(clients),
    ...sourceRoutes(clients),
    ...registrationRoutes(clients),
    ...supplyEventRoutes(clients, integrationOwned),
    ...thresholdRoutes(clients),
    ...reportRoutes(clients),
  ];
}
