import type { ServerResponse } from 'node:http';
import type { CallOptions } from './route';

/**
 * The RPC options of one request. Its abort signal (the client went away before the answer was
 * written: cancel the RPC and a running export) is made when a call first reads it, so a route that
 * calls nothing pays for no AbortController.
 */
export function callOptions(headers: Record<string, string>, res: ServerResponse): CallOptions {
  let controller: AbortController | undefined;
  return {
    headers,
    get signal() {
      if (!controller) {
        const c = (controller = new AbortController());
        if (res.destroyed && !res.writableFinished) c.abort();
        else res.on('close', () => !res.writableFinished && c.abort());
      }
      return controller.signal;
    },
  };
}
