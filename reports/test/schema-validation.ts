// Tests validate a result document against its shipped JSON Schema (draft
// 2020-12). Each schema file is compiled once per process.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;
const compiled = new Map<string, ValidateFunction>();

/** A schema shipped in reports/schemas/, by file name. */
export function schemaUrl(fileName: string): URL {
  return new URL(`../schemas/${fileName}`, import.meta.url);
}

/** Null when `value` conforms to the schema at `url`, else its first problems. */
export function documentProblems(url: URL, value: unknown): string | null {
  let validate = compiled.get(url.href);
  if (!validate) {
    const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
    addFormats(ajv);
    validate = ajv.compile(JSON.parse(readFileSync(url, 'utf8')) as object);
    compiled.set(url.href, validate);
  }
  if (validate(value)) return null;
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`)
    .join('; ');
}
