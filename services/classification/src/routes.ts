import type { ConnectRouter } from '@connectrpc/connect';
import { ClassificationService } from '@vat/gen/vat/classification/v1/classification_service_pb';
import { bindHandlers } from '@vat/platform/service-module';
import type { ClassificationDeps } from './context';
import { archiveAssignment } from './handlers/archive-assignment';
import { getAssignment } from './handlers/get-assignment';
import { getClassificationCode } from './handlers/get-classification-code';
import { listAssignments } from './handlers/list-assignments';
import { resolveTaxClass } from './handlers/resolve-tax-class';
import { submitAssignment } from './handlers/submit-assignment';
import { validateAssignment } from './handlers/validate-assignment';

export function routes(deps: ClassificationDeps) {
  return (router: ConnectRouter) =>
    router.service(ClassificationService, bindHandlers(deps, { getClassificationCode, resolveTaxClass, submitAssignment, listAssignments, getAssignment, validateAssignment, archiveAssignment }));
}
