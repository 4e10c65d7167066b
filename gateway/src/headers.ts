/** On every answer, including errors and answers written outside Fastify. */
export const SECURITY_HEADERS = { 'x-content-type-options': 'nosniff' } as const;

/**
 * The API documentation (Swagger UI): its own scripts, styles, images and the OpenAPI document from
 * this origin only, nothing inline, never inside a frame.
 */
export const DOCS_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
} as const;

/** Where the Swagger UI and its assets are served. */
export const DOCS_PREFIX = '/docs';

/** Whether a path is the documentation page or one of its assets. */
export function isDocsPath(path: string): boolean {
  return path === DOCS_PREFIX || path.startsWith(`${DOCS_PREFIX}/`);
}
