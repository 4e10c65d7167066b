import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { openApiDocument } from './openapi-document';

/** Where the dashboard's API types live (committed; a test checks they match the served document). */
export const SCHEMA_FILE = fileURLToPath(new URL('../src/api/schema.d.ts', import.meta.url));

const HEADER = '// Generated from the gateway\'s /openapi.json by `npm run generate:dashboard-api` (openapi-typescript). Do not edit.\n';

/** TypeScript types of every path, parameter and response the OpenAPI document declares. */
export async function generatedSchema(): Promise<string> {
  const ast = await openapiTS((await openApiDocument()) as never, { alphabetize: true });
  return HEADER + astToString(ast);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(SCHEMA_FILE, await generatedSchema());
  console.log(`wrote ${SCHEMA_FILE}`);
}
