// junit.xml beside a property run's result.json: the same suite certify
// writes for its properties stage.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResultDocument } from '../../properties/runner/result-document.ts';
import { renderJunitXml, spanSeconds } from '../junit/junit.ts';
import { propertiesSuite } from '../junit/suites.ts';

export async function writePropertiesJunit(dir: string, doc: ResultDocument): Promise<string> {
  const file = join(dir, 'junit.xml');
  await writeFile(file, renderJunitXml('fleetproof properties', [propertiesSuite(doc)], spanSeconds(doc.started_at, doc.finished_at)));
  return file;
}
