import type { ServiceDeps } from '@vat/platform/service-module';
import { AssignmentRepository } from './repositories/assignments';
import { CatalogRepository } from './repositories/catalogs';
import { CoverageRepository } from './repositories/coverage';

/** The services whose RPCs it calls (the module's `uses`). */
type Uses = 'ledger';

/** The classification service's deps: the platform's plus its repositories. */
export type ClassificationDeps = ServiceDeps<Uses> & {
  catalogs: CatalogRepository;
  coverage: CoverageRepository;
  assignments: AssignmentRepository;
};

/**
 * Operator secrets (TOTP) are only read by the admin workflow (`src/admin/`, run by the admin CLI), which
 * builds its own cipher from DATA_ENCRYPTION_KEY; the service answering RPCs never holds them.
 */
export function classificationContext(deps: ServiceDeps<Uses>): ClassificationDeps {
  return { ...deps, catalogs: new CatalogRepository(deps.pool), coverage: new CoverageRepository(deps.pool), assignments: new AssignmentRepository(deps.pool) };
}
