// Which request bodies may carry values of any depth. A closed schema bounds
// the depth of everything that passes it, and ajv never descends into a
// value it has already refused, so only bodies whose schema admits open
// content (a JSON Schema value, a batch item before its own check) need the
// nesting limit that protects the recursive digest and copy steps.
import { openApiDocument } from '../../contract/openapi.ts';

type Schema = boolean | Record<string, unknown>;

function componentOf(ref: string): Schema {
  const name = ref.replace('#/components/schemas/', '');
  const found = openApiDocument().components.schemas[name];
  if (found === undefined) throw new Error(`openapi.yaml has no schema ${name}`);
  return found as Schema;
}

function typesOf(schema: Record<string, unknown>): string[] | null {
  const t = schema['type'];
  if (t === undefined) return null;
  return Array.isArray(t) ? (t as string[]) : [t as string];
}

/** True unless every value the schema accepts is provably of bounded depth. Errs towards true. */
export function admitsOpenContent(schema: Schema, refsOnPath: ReadonlySet<string> = new Set()): boolean {
  if (schema === true) return true;
  if (schema === false) return false;
  if (schema['const'] !== undefined || schema['enum'] !== undefined) return false;
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    // A schema that refers back to itself can nest without end.
    if (refsOnPath.has(ref) || admitsOpenContent(componentOf(ref), new Set([...refsOnPath, ref]))) return true;
  }
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const alternatives = schema[key] as Schema[] | undefined;
    if (alternatives?.some((s) => admitsOpenContent(s, refsOnPath))) return true;
  }
  const types = typesOf(schema);
  const constrainedElsewhere = typeof ref === 'string' || ['oneOf', 'anyOf', 'allOf'].some((k) => schema[k] !== undefined);
  if (types === null && constrainedElsewhere) return false;
  const mayBe = (t: string) => types === null || types.includes(t);
  if (mayBe('object')) {
    if (schema['additionalProperties'] !== false) return true;
    const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
    if (Object.values(properties).some((s) => admitsOpenContent(s, refsOnPath))) return true;
  }
  if (mayBe('array')) {
    const items = schema['items'] as Schema | undefined;
    if (items === undefined || admitsOpenContent(items, refsOnPath)) return true;
  }
  return false;
}
