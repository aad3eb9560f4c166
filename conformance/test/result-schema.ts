// The JSON Schema of result.json, compiled once for the tests that check
// every result they produce against it.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

export const RESULT_SCHEMA_PATH = new URL('../../reports/schemas/conformance-result.v1.schema.json', import.meta.url);

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;
let validate: ValidateFunction | undefined;

/** Null when `value` is a valid fleetproof-conformance-result/v1 document, else the first problems. */
export function resultSchemaProblems(value: unknown): string | null {
  if (!validate) {
    const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
    addFormats(ajv);
    validate = ajv.compile(JSON.parse(readFileSync(RESULT_SCHEMA_PATH, 'utf8')) as object);
  }
  if (validate(value)) return null;
  return (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath} ${e.message}`).join('; ');
}
