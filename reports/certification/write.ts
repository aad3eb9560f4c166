// Renders a certification's report files next to its result.json, reading
// each stage's own result document for the detail.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CertificationResult, StageName } from '../schemas/certification-result.ts';
import type { ConformanceResult } from '../../conformance/runner/result.ts';
import type { ResultDocument as PropertiesDocument } from '../../properties/runner/result-document.ts';
import type { LoadReport } from '../../load/runner/load-report.ts';
import type { FaultsDocument } from '../schemas/faults-result.ts';
import { renderCertificationHtml } from './render-html.ts';
import { renderCertificationJunit } from './render-junit.ts';
import { renderCertificationMarkdown } from './render-md.ts';

async function stageDocument<T>(dir: string, r: CertificationResult, name: StageName): Promise<T | null> {
  const file = r.stages.find((s) => s.name === name)?.result_file;
  if (!file) return null;
  return readFile(join(dir, file), 'utf8').then(
    (text) => JSON.parse(text) as T,
    () => null,
  );
}

export async function writeCertificationReports(dir: string, r: CertificationResult): Promise<void> {
  const conformance = await stageDocument<ConformanceResult>(dir, r, 'conformance');
  const properties = await stageDocument<PropertiesDocument>(dir, r, 'properties');
  const load = await stageDocument<LoadReport>(dir, r, 'load');
  const faults = await stageDocument<FaultsDocument>(dir, r, 'faults');
  await writeFile(join(dir, 'report.html'), renderCertificationHtml(r, load, faults, conformance));
  await writeFile(join(dir, 'report.md'), renderCertificationMarkdown(r));
  await writeFile(join(dir, 'junit.xml'), renderCertificationJunit(r, { conformance, properties, faults, load }));
}
