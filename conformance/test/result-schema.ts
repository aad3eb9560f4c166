// The JSON Schema of a conformance result.json, for the tests that check
// every result they produce against it.
import { documentProblems, schemaUrl } from '../../reports/test/schema-validation.ts';

export const RESULT_SCHEMA_PATH = schemaUrl('conformance-result.v1.schema.json');

/** Null when `value` is a valid fleetproof-conformance-result/v1 document, else the first problems. */
export function resultSchemaProblems(value: unknown): string | null {
  return documentProblems(RESULT_SCHEMA_PATH, value);
}
