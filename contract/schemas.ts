// JSON Schema validators compiled from openapi.yaml's components with ajv
// (draft 2020-12, the dialect of OpenAPI 3.1). Shared by the reference, which
// validates requests, and the harness, which validates responses.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openApiDocument } from './openapi.ts';

const SCHEMA_ID = 'fleetproof-registry';

export interface SchemaViolation {
  /** JSON pointer of the offending value inside the validated document. */
  path: string;
  message: string;
}

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', `${SCHEMA_ID}#/$defs/`) : rewriteRefs(v);
    }
    return out;
  }
  return value;
}

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function instance(): Ajv2020 {
  if (ajv) return ajv;
  ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: SCHEMA_ID, $defs: rewriteRefs(openApiDocument().components.schemas) as object });
  return ajv;
}

/** Compiles (once) a validator for any JSON Schema that may $ref components. */
export function compileSchema(schema: unknown): ValidateFunction {
  const key = JSON.stringify(schema);
  let fn = compiled.get(key);
  if (!fn) {
    fn = instance().compile(rewriteRefs(schema) as object);
    compiled.set(key, fn);
  }
  return fn;
}

const byComponent = new Map<string, ValidateFunction>();

/** The validator of one named component schema, e.g. `ConnectorInstance`. */
export function componentValidator(name: string): ValidateFunction {
  let fn = byComponent.get(name);
  if (!fn) {
    if (!(name in openApiDocument().components.schemas)) throw new Error(`openapi.yaml has no schema ${name}`);
    fn = compileSchema({ $ref: `#/components/schemas/${name}` });
    byComponent.set(name, fn);
  }
  return fn;
}

export function describeViolation(errors: ErrorObject[] | null | undefined): SchemaViolation {
  const e = errors?.[0];
  if (!e) return { path: '', message: 'invalid' };
  // ajv names the field but not what it should have held: the unknown field, or the one value a const allows.
  const extra =
    e.keyword === 'additionalProperties'
      ? ` (${String(e.params['additionalProperty'])})`
      : e.keyword === 'const'
        ? ` ${JSON.stringify(e.params['allowedValue'])}`
        : '';
  return { path: e.instancePath || '/', message: `${e.instancePath || 'value'} ${e.message ?? 'is invalid'}${extra}` };
}

/** Validates `value` against a component schema; null when it conforms. */
export function violationOf(name: string, value: unknown): SchemaViolation | null {
  const validate = componentValidator(name);
  return validate(value) ? null : describeViolation(validate.errors);
}
