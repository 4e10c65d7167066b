import type { Clients } from '@vat/platform/clients';
import type { Authenticator } from '../auth';
import type { Asset } from '../dashboard-assets';
import type { RouteTable } from '../route';
import type { SessionStore } from '../sessions';
import { calculationRoutes } from './calculation';
import { classificationCodeRoutes } from './classification-codes';
import { correctionReviewRoutes } from './correction-reviews';
import { governedRoutes } from './governed';
import { productCodeAssignmentRoutes } from './product-code-assignments';
import { referenceRoutes } from './reference';
import { registrationRoutes } from './registrations';
import { sessionRoutes } from './sessions';
import { reportRoutes } from './reports';
import { sourceRoutes } from './sources';
import { supplyEventRoutes, type IntegrationOwnership } from './supply-events';
import { thresholdRoutes } from './thresholds';
import { transactionRoutes } from './transactions';
import { vatNumberRoutes } from './vat-numbers';

/** What the dashboard's routes use: its sessions, the key check and its built files (read by the handlers only). The page and asset routes (`dashboardRoutes`) are registered beside this table: they are not API operations. */
export type WebDeps = { sessions: SessionStore; auth: Authenticator; assets: Map<string, Asset> | undefined };

/** Every resource's route table, in one list the gateway registers. */
export function allRoutes(clients: Clients, integrationOwned: IntegrationOwnership, web: WebDeps = {} as WebDeps): RouteTable {
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
    ...sessionRoutes(web),
  ];
}
