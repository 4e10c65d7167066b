import type { Clients } from '@vat/platform/clients';
import type { RouteTable } from '../route';
import { calculationRoutes } from './calculation';
import { classificationCodeRoutes } from './classification-codes';
import { correctionReviewRoutes } from './correction-reviews';
import { governedRoutes } from './governed';
import { productCodeAssignmentRoutes } from './product-code-assignments';
import { referenceRoutes } from './reference';
import { registrationRoutes } from './registrations';
import { reportRoutes } from './reports';
import { sourceRoutes } from './sources';
import { supplyEventRoutes, type IntegrationOwnership } from './supply-events';
import { thresholdRoutes } from './thresholds';
import { transactionRoutes } from './transactions';
import { vatNumberRoutes } from './vat-numbers';

/** Every resource's route table, in one list the gateway registers. */
export function allRoutes(clients: Clients, integrationOwned: IntegrationOwnership): RouteTable {
  return [
    ...referenceRoutes(clients),
    ...classificationCodeRoutes(clients),
    ...productCodeAssignmentRoutes(clients, integrationOwned),
    ...correctionReviewRoutes(clients),
    ...calculationRoutes(clients),
    ...governedRoutes(clients),
    ...transactionRoutes(clients),
    ...sourceRoutes(clients),
    ...registrationRoutes(clients),
    ...supplyEventRoutes(clients, integrationOwned),
    ...thresholdRoutes(clients),
    ...reportRoutes(clients),
    ...vatNumberRoutes(clients),
  ];
}
