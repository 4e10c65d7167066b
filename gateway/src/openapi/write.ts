import { writeFileSync } from 'node:fs';
import type { Clients } from '@vat/platform/clients';
import { healthRoutes } from '../routes/health';
import { allRoutes } from '../routes/index';
import { openApiDocument, type OpenApiDocument } from './document';

/** The document `GET /openapi.json` serves, from the route table alone (no handler runs, no service is needed). */
export function publishedDocument(): OpenApiDocument {
  return openApiDocument([...healthRoutes(async () => ({ ready: true, checks: [] })), ...allRoutes({} as Clients, async () => false)]);
}

/** The text of docs/openapi.json. */
export const publishedText = () => `${JSON.stringify(publishedDocument(), null, 2)}\n`;

// `npm run openapi`: regenerate docs/openapi.json.
if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(new URL('../../../docs/openapi.json', import.meta.url), publishedText());
  console.log('wrote docs/openapi.json');
}
