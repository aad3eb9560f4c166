// [wire-integers] leaves open whether an integral number written with a
// fraction or an exponent (`1.0`, `1e0`) is read as that integer or refused.
// JSON.parse reads both as 1, so a registry that refuses them must look at the
// text: this finds an integer member of the contract's schemas (by name)
// whose value is so written. Names come from openapi.yaml, so open content
// (capability schemas) is not mistaken for a record unless it reuses a name.
import { componentSchema, openApiDocument } from '../../contract/openapi.ts';
import { invalid } from '../../contract/registry-error.ts';

let integerNames: ReadonlySet<string> | undefined;

type Schema = { type?: unknown; $ref?: string; oneOf?: Schema[]; anyOf?: Schema[] };

/** An integer schema, through a named one (`Revision`, `Count`) or a choice that admits one (an integer or null). */
function admitsInteger(schema: Schema | undefined): boolean {
  if (!schema) return false;
  if (schema.type === 'integer') return true;
  if (schema.$ref) return admitsInteger(componentSchema(schema.$ref) as Schema);
  return [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].some(admitsInteger);
}

function collectIntegerNames(node: unknown, into: Set<string>): void {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) return node.forEach((n) => collectIntegerNames(n, into));
  const properties = (node as { properties?: Record<string, Schema> }).properties;
  if (properties) for (const [name, schema] of Object.entries(properties)) if (admitsInteger(schema)) into.add(name);
  for (const child of Object.values(node)) collectIntegerNames(child, into);
}

/** A member name not preceded by an escape, then a number with a fraction or an exponent. */
const WRITTEN_WITH_FRACTION = /(?<!\\)"([a-z_]+)"\s*:\s*(-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)/g;

/**
 * What every refusal below needs somewhere in the text: a member name's
 * closing quote, a colon, then a number that goes on with a fraction or an
 * exponent. Most bodies have none (a timestamp's `30.224` follows a digit),
 * and finding that out takes one scan without captures.
 */
const FRACTION_AFTER_COLON = /"\s*:\s*-?[0-9]+[.eE]/;

/** INVALID_REQUEST when an integer member is written as `1.0` or `1e0`. */
export function refuseIntegralFractions(text: string): void {
  if (!FRACTION_AFTER_COLON.test(text)) return;
  integerNames ??= (() => {
    const names = new Set<string>();
    collectIntegerNames(openApiDocument().components.schemas, names);
    return names;
  })();
  for (const [, name, number] of text.matchAll(WRITTEN_WITH_FRACTION)) {
    if (!/[.eE]/.test(number!) || !integerNames.has(name!)) continue;
    if (Number.isInteger(Number(number))) throw invalid(`${name} must be written as an integer, not ${number}`);
  }
}
