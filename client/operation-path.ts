// From an operation of openapi.yaml and its typed parameters to the request
// line: method, path with percent-encoded parameters, and query string.
import { operations, type OperationEntry } from '../contract/openapi.ts';
import type { OperationId, ParamsOf, QueryOf } from '../contract/operations.ts';

type QueryValues = Record<string, string | number | boolean | undefined>;

export interface OperationAddress<K extends OperationId> {
  params?: ParamsOf<K>;
  /** Path parameters placed in the path exactly as given, without percent-encoding. */
  rawParams?: Partial<Record<keyof ParamsOf<K> & string, string>>;
  query?: QueryOf<K> | QueryValues;
}

let byId: Map<string, OperationEntry> | undefined;

export function operationEntry(op: OperationId): OperationEntry {
  byId ??= new Map(operations().map((e) => [e.operation.operationId, e]));
  const entry = byId.get(op);
  if (!entry) throw new Error(`openapi.yaml has no operation ${op}`);
  return entry;
}

export function operationPath<K extends OperationId>(op: K, address: OperationAddress<K> = {}): { method: string; path: string } {
  const entry = operationEntry(op);
  const params = (address.params ?? {}) as Record<string, string>;
  const rawParams = (address.rawParams ?? {}) as Record<string, string>;
  let path = entry.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    if (rawParams[name] !== undefined) return rawParams[name]!;
    const value = params[name];
    if (value === undefined) throw new Error(`${op}: path parameter ${name} missing`);
    return encodeURIComponent(value);
  });
  if (address.query) {
    const entries = Object.entries(address.query).filter(([, v]) => v !== undefined) as Array<[string, string | number | boolean]>;
    if (entries.length > 0) path += '?' + new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString();
  }
  return { method: entry.method.toUpperCase(), path };
}
