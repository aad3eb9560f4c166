// A junit.xml against the published Jenkins junit-10 schema (junit-10.xsd
// beside this file), validated by libxml2's own XSD engine compiled to
// WebAssembly (xmllint-wasm): what the CI tools that read these files accept.
import { readFileSync } from 'node:fs';
import { validateXML } from 'xmllint-wasm';

const SCHEMA = { fileName: 'junit-10.xsd', contents: readFileSync(new URL('./junit-10.xsd', import.meta.url), 'utf8') };

/** libxml2's complaints about the file, one line each (empty when it is valid under junit-10.xsd). */
export async function junitSchemaProblems(xml: string, fileName = 'junit.xml'): Promise<string[]> {
  const result = await validateXML({ xml: { fileName, contents: xml }, schema: SCHEMA });
  if (result.valid) return [];
  // An invalid file with no parsed error still fails: its raw output says why.
  return result.errors.length > 0
    ? result.errors.map((e) => `${e.loc ? `line ${e.loc.lineNumber}: ` : ''}${e.message}`)
    : [result.rawOutput.trim() || 'invalid'];
}
