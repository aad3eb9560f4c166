// How deep a request body may nest and still be legal, read from its schema.
// A closed schema bounds the depth of everything that passes it, so a body
// nested deeper than the deepest value its operation's schema accepts is
// refused while its bytes arrive, before JSON.parse builds it ([wire-nesting]
// and [error-no-server-error-on-input]: one deep body must not stall the
// server). Schemas with open content (a JSON Schema value, a batch item
// before its own check) accept any depth; the contract's bound caps them.
//
// Depth counts as [wire-nesting] does: a scalar is 0, a container one more
// than its deepest member. Every keyword narrows what a schema accepts, so
// reading only the keywords below gives an upper bound; `patternProperties`
// and `prefixItems` widen what `additionalProperties` and `items` leave out,
// so they are read too, and `$dynamicRef` or an `items` array (older drafts)
// count as open.
import { componentSchema } from '../../contract/openapi.ts';

type Schema = boolean | Record<string, unknown>;

/** The nesting depth of a JSON value, counted as [wire-nesting] counts it. */
export function nestingOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let deepest = 0;
  for (const member of Object.values(value)) deepest = Math.max(deepest, nestingOf(member));
  return 1 + deepest;
}

function deepestOf(schemas: Iterable<Schema>, refsOnPath: ReadonlySet<string>): number {
  let deepest = 0;
  for (const s of schemas) deepest = Math.max(deepest, deepestNesting(s, refsOnPath));
  return deepest;
}

/** The deepest an object the schema accepts may nest; Infinity when it may nest without end. */
function objectNesting(schema: Record<string, unknown>, refsOnPath: ReadonlySet<string>): number {
  const additional = schema['additionalProperties'];
  if (additional === undefined || additional === true) return Infinity;
  const members: Schema[] = [
    ...Object.values((schema['properties'] ?? {}) as Record<string, Schema>),
    ...Object.values((schema['patternProperties'] ?? {}) as Record<string, Schema>),
    additional as Schema,
  ];
  return 1 + deepestOf(members, refsOnPath);
}

function arrayNesting(schema: Record<string, unknown>, refsOnPath: ReadonlySet<string>): number {
  const items = schema['items'];
  if (items === undefined || items === true || Array.isArray(items)) return Infinity;
  return 1 + deepestOf([items as Schema, ...((schema['prefixItems'] ?? []) as Schema[])], refsOnPath);
}

/**
 * The deepest nesting of any value the schema accepts: Infinity when it
 * accepts values of any depth. Errs towards deeper, never shallower.
 */
export function deepestNesting(schema: Schema, refsOnPath: ReadonlySet<string> = new Set()): number {
  if (schema === true) return Infinity;
  if (schema === false) return 0;
  if ('const' in schema) return nestingOf(schema['const']);
  if (Array.isArray(schema['enum'])) return Math.max(0, ...schema['enum'].map(nestingOf));
  if (schema['$dynamicRef'] !== undefined) return Infinity;
  // A value must pass every one of these, so the shallowest bound holds.
  let bound = Infinity;
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    // A schema that refers back to itself can nest without end.
    bound = refsOnPath.has(ref) ? Infinity : deepestNesting(componentSchema(ref) as Schema, new Set([...refsOnPath, ref]));
  }
  for (const s of (schema['allOf'] ?? []) as Schema[]) bound = Math.min(bound, deepestNesting(s, refsOnPath));
  for (const key of ['oneOf', 'anyOf'] as const) {
    const alternatives = schema[key] as Schema[] | undefined;
    if (alternatives) bound = Math.min(bound, deepestOf(alternatives, refsOnPath));
  }
  const t = schema['type'];
  const types = t === undefined ? null : Array.isArray(t) ? (t as string[]) : [t as string];
  const mayBe = (name: string) => types === null || types.includes(name);
  let own = 0;
  if (mayBe('object')) own = Math.max(own, objectNesting(schema, refsOnPath));
  if (mayBe('array')) own = Math.max(own, arrayNesting(schema, refsOnPath));
  return Math.min(bound, own);
}
