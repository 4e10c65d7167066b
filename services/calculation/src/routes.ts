import type { ConnectRouter } from '@connectrpc/connect';
import type { ServiceDeps } from '@vat/platform/service-module';

export function routes(_deps: ServiceDeps) {
  return (_router: ConnectRouter) => {};
}
