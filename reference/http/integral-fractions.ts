// [wire-integers] leaves open whether an integral number written with a
// fraction or an exponent (`1.0`, `1e0`) is read as that integer or refused.
// JSON.parse reads both as 1, so a registry that refuses them must look at the
// text: this finds an integer member of the contract's schemas (by name)
// whose value is so written. Names come from openapi.yaml, so open content
// (capability schemas) is not mistaken for a record unless it reuses a name.
import { openApiDocument } from '../../contract/openapi.ts';
import { invalid } from '../../contract/registry-error.ts';

let integerNames: ReadonlySet<string> | undefined;

function collectIntegerNames(node: unknown, into: Set<string>): void {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) return node.forEach((n) => collectIntegerNames(n, into));
  const properties = (node as { properties?: Record<string, { type?: unknown }> }).properties;
  if (properties) for (const [name, schema] of Object.entries(properties)) if (schema?.type === 'integer') into.add(name);
  for (const child of Object.values(node)) collectIntegerNames(child, into);
}

/** A member name not preceded by an escape, then a number with a fraction or an exponent. */
const WRITTEN_WITH_FRACTION = /(?<!\\)"([a-z_]+)"\s*:\s*(-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)/g;

/** INVALID_REQUEST when an integer member is written as `1.0` or `1e0`. */
export function refuseIntegralFractions(text: string): void {
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
