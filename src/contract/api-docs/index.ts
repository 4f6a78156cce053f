/**
 * API descriptions of the interfaces for other ecosystems: OpenAPI 3.1 and AsyncAPI 3.0,
 * from one generator and one set of schema components.
 */
import { writeInto } from '../schema-files.js';
import path from 'node:path';
import { SvcError } from '../../errors.js';
import { compact } from '../../compact.js';
import { buildAsyncApi } from './asyncapi.js';
import { buildOpenApi } from './openapi.js';
import { API_ROLES, type ApiRole } from './operations.js';

export { buildOpenApi } from './openapi.js';
export { buildAsyncApi } from './asyncapi.js';
export { API_ROLES, API_OPERATIONS, type ApiRole, type ApiOperation } from './operations.js';

export const API_FORMATS = ['openapi', 'asyncapi'] as const;
export type ApiFormat = (typeof API_FORMATS)[number];

export interface BuildApiDocumentOptions {
  format: ApiFormat;
  role?: string;
  payloadsDir?: string;
}

function checkRole(role: string | undefined): ApiRole | undefined {
  if (role === undefined) return undefined;
  if ((API_ROLES as readonly string[]).includes(role)) return role as ApiRole;
  throw new SvcError(
    'SVC_E_USAGE',
    `Could not build the API document: unknown role "${role}".`,
    `Use one of ${API_ROLES.join(', ')}.`,
  );
}

/**
 * One API document; SVC_E_USAGE for an unknown role or a role with AsyncAPI.
 * @example buildApiDocument({ format: 'openapi', role: 'integrator' })
 */
export function buildApiDocument(options: BuildApiDocumentOptions): Record<string, unknown> {
  const role = checkRole(options.role);
  if (options.format === 'asyncapi') {
    if (role !== undefined)
      throw new SvcError(
        'SVC_E_USAGE',
        'Could not build the AsyncAPI document: --role applies to --format openapi only.',
        'The AsyncAPI document describes every flow from the platform side; drop --role.',
      );
    return buildAsyncApi(compact({ payloadsDir: options.payloadsDir }));
  }
  return buildOpenApi(compact({ payloadsDir: options.payloadsDir, role }));
}

/** The file name of a document: `openapi.json`, `openapi.integrator.json`, `asyncapi.json`. */
export function apiDocumentFileName(format: ApiFormat, role?: string): string {
  return role === undefined ? `${format}.json` : `${format}.${role}.json`;
}

export interface WriteApiDocumentOptions extends BuildApiDocumentOptions {
  dir: string;
  cwd?: string;
}

/**
 * Writes the document into `dir`; resolves to the file written (as given + name).
 * @example await writeApiDocument({ format: 'openapi', dir: 'schemas' })
 */
export async function writeApiDocument(options: WriteApiDocumentOptions): Promise<string> {
  const document = buildApiDocument(options);
  const name = apiDocumentFileName(options.format, options.role);
  await writeInto(options, options.dir, [[name, `${JSON.stringify(document, null, 2)}\n`]]);
  return path.join(options.dir, name);
}
