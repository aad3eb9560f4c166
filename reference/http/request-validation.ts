// Request validation compiled once per operation from openapi.yaml: path
// parameters, query parameters and the body each become one JSON Schema that
// ajv compiles ([wire-closed-records]). The only code here turns the text of
// the URL into JSON values the schemas can judge: percent-decoding, and query
// strings to integers or booleans where the parameter's schema says so.
import type { ValidateFunction } from 'ajv';
import { componentSchema, type OpenApiParameter, type OperationEntry } from '../../contract/openapi.ts';
import { compileSchema, describeViolation } from '../../contract/schemas.ts';
import { invalid } from '../../contract/registry-error.ts';
import { deepestNesting } from './body-nesting.ts';

type ScalarType = 'string' | 'integer' | 'number' | 'boolean';

export interface OperationValidators {
  params(raw: Record<string, string>): Record<string, string>;
  query(search: string): Record<string, unknown>;
  /** Absent when the operation takes no body. */
  body?(value: unknown): void;
  /** The deepest nesting of a body the schema accepts; Infinity when it accepts any depth (body-nesting.ts). */
  bodyNesting: number;
}

const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** The declared scalar type of a parameter schema, following one level of $ref. */
function scalarTypeOf(schema: unknown): ScalarType {
  let s = schema as { type?: unknown; $ref?: string };
  if (s.$ref) s = componentSchema(s.$ref) as typeof s;
  return s.type === 'integer' || s.type === 'number' || s.type === 'boolean' ? s.type : 'string';
}

/** Leaves a value it cannot convert as text, so the schema reports the type error. */
function coerce(text: string, type: ScalarType): unknown {
  if ((type === 'integer' || type === 'number') && JSON_NUMBER.test(text)) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

function objectSchema(params: OpenApiParameter[]): object {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of params) {
    properties[p.name] = p.schema;
    if (p.required) required.push(p.name);
  }
  return { type: 'object', additionalProperties: false, required, properties };
}

function check(validate: ValidateFunction, value: unknown, where: 'path' | 'query' | 'body'): void {
  if (validate(value)) return;
  const v = describeViolation(validate.errors);
  throw invalid(`${where}: ${v.message}`, { in: where, path: v.path });
}

export function compileValidators(entry: OperationEntry): OperationValidators {
  const pathParams = entry.parameters.filter((p) => p.in === 'path');
  const queryParams = entry.parameters.filter((p) => p.in === 'query');
  const pathSchema = compileSchema(objectSchema(pathParams));
  const querySchema = compileSchema(objectSchema(queryParams));
  const queryTypes = new Map(queryParams.map((p) => [p.name, scalarTypeOf(p.schema)]));
  const bodySchema = entry.operation.requestBody?.content['application/json']?.schema;
  const bodyValidate = bodySchema === undefined ? undefined : compileSchema(bodySchema);

  const validators: OperationValidators = {
    bodyNesting: bodySchema === undefined ? 0 : deepestNesting(bodySchema as Record<string, unknown>),
    params(raw) {
      if (pathParams.length === 0) return raw;
      const decoded: Record<string, string> = {};
      for (const name in raw) {
        const value = raw[name]!;
        try {
          decoded[name] = value.includes('%') ? decodeURIComponent(value) : value;
        } catch {
          throw invalid(`path: parameter ${name} is not valid percent-encoding`, { in: 'path', path: `/${name}` });
        }
      }
      check(pathSchema, decoded, 'path');
      return decoded;
    },
    query(search) {
      const out: Record<string, unknown> = {};
      if (search === '') return out;
      for (const [name, text] of new URLSearchParams(search)) {
        // Undeclared parameters are ignored, as caches and tracers add their own;
        // declared ones must conform.
        const type = queryTypes.get(name);
        if (type === undefined) continue;
        // A repeated parameter stays a list, which no scalar schema accepts.
        const value = coerce(text, type);
        out[name] = Object.hasOwn(out, name) ? [out[name], value].flat() : value;
      }
      check(querySchema, out, 'query');
      return out;
    },
  };
  if (bodyValidate) validators.body = (value) => check(bodyValidate, value, 'body');
  return validators;
}
