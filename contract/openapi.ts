// Loads openapi.yaml once. Everything that needs a wire shape — the reference
// server's request validation, the harness's response validation, the route
// table — reads it from here, so the document stays the single source.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { sha256Hex } from './digest.ts';

export const OPENAPI_PATH = new URL('./openapi.yaml', import.meta.url);
/** The YAML parsed when the compiled code was built (scripts/openapi-json.js), with its digest; absent beside the sources. */
const PARSED_PATH = new URL('./openapi.json', import.meta.url);

export interface OpenApiOperation {
  operationId: string;
  security?: Array<Record<string, string[]>>;
  'x-fleetproof-clauses'?: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: unknown }> };
  responses: Record<string, unknown>;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: unknown;
  $ref?: string;
}

export interface OpenApiDocument {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, unknown>;
    parameters: Record<string, OpenApiParameter>;
    responses: Record<string, unknown>;
  };
}

let cached: OpenApiDocument | undefined;

/** The parsed copy while it is the YAML's beside it, else the YAML parsed here (about a third of a CPU-second). */
function load(): OpenApiDocument {
  const yaml = readFileSync(OPENAPI_PATH, 'utf8');
  try {
    const parsed = JSON.parse(readFileSync(PARSED_PATH, 'utf8')) as { yaml_sha256?: unknown; document?: OpenApiDocument };
    if (parsed.yaml_sha256 === sha256Hex(yaml) && parsed.document) return parsed.document;
  } catch {
    // No parsed copy (running from the sources), or one that cannot be read: the YAML is the source.
  }
  const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return parse(yaml) as OpenApiDocument;
}

export function openApiDocument(): OpenApiDocument {
  cached ??= load();
  return cached;
}

/** The schema a `#/components/schemas/<name>` reference names; an error when openapi.yaml has none. */
export function componentSchema(ref: string): unknown {
  const name = ref.replace('#/components/schemas/', '');
  const found = openApiDocument().components.schemas[name];
  if (found === undefined) throw new Error(`openapi.yaml has no schema ${name}`);
  return found;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface OperationEntry {
  method: HttpMethod;
  path: string;
  operation: OpenApiOperation;
  /** Parameters of the path item and the operation, $refs resolved. */
  parameters: OpenApiParameter[];
  /** The roles the bearer token must hold; null when the operation is public. */
  roles: string[] | null;
}

function resolveParameter(doc: OpenApiDocument, p: OpenApiParameter): OpenApiParameter {
  if (!p.$ref) return p;
  const name = p.$ref.replace('#/components/parameters/', '');
  const found = doc.components.parameters[name];
  if (!found) throw new Error(`openapi.yaml: unknown parameter ${p.$ref}`);
  return found;
}

/** Every operation of the document, in document order. */
export function operations(doc: OpenApiDocument = openApiDocument()): OperationEntry[] {
  const out: OperationEntry[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const shared = ((item['parameters'] as OpenApiParameter[] | undefined) ?? []).map((p) => resolveParameter(doc, p));
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OpenApiOperation | undefined;
      if (!operation) continue;
      const own = (operation.parameters ?? []).map((p) => resolveParameter(doc, p));
      const security = operation.security;
      const roles = security && security.length === 0 ? null : (security?.[0]?.['bearer'] ?? []);
      out.push({ method, path, operation, parameters: [...shared, ...own], roles });
    }
  }
  return out;
}
