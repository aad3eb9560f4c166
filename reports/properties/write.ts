// The pages and junit.xml beside a property run's result.json: the same
// suite certify writes for its properties stage, and the same look as the
// other reports.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResultDocument } from '../../properties/runner/result-document.ts';
import { renderJunitXml, spanSeconds } from '../junit/junit.ts';
import { propertiesSuite } from '../junit/suites.ts';
import { renderPropertiesHtml, renderPropertiesMarkdown } from './render.ts';

export async function writePropertiesReports(dir: string, doc: ResultDocument): Promise<string[]> {
  const files: Array<[string, string]> = [
    [
      'junit.xml',
      renderJunitXml(`fleetproof properties ${doc.run_id}`, [propertiesSuite(doc)], spanSeconds(doc.started_at, doc.finished_at)),
    ],
    ['report.md', renderPropertiesMarkdown(doc)],
    ['report.html', renderPropertiesHtml(doc)],
  ];
  await Promise.all(files.map(([name, text]) => writeFile(join(dir, name), text)));
  return files.map(([name]) => join(dir, name));
}
