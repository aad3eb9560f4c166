// A run folder as a comparison reads it: whichever result document it holds
// (a certification's result.json and the stage documents it names, a
// conformance or property run's result.json, a load run's summary.json),
// with its verdict in the common words and what produced it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConformanceResult } from '../../conformance/runner/result.ts';
import type { MaybeUnderFaults } from '../../load/runner/judge-under-faults.ts';
import { loadVerdictKey } from '../../load/runner/load-report.ts';
import { SUMMARY_FILE } from '../../load/runner/write-summary.ts';
import { propertiesVerdictKey, type ResultDocument as PropertiesDocument } from '../../properties/runner/result-document.ts';
import type { VerdictKey } from '../../client/verdict-words.ts';
import { CERTIFICATION_SCHEMA, RESULT_FILE, type CertificationResult } from '../schemas/certification-result.ts';
import type { RunIdentity } from '../look.ts';
import { certificationIdentity } from '../certification/render-html.ts';
import { conformanceIdentity } from '../conformance/render-html.ts';
import { loadIdentity } from '../load/render-html.ts';
import { propertiesIdentity } from '../properties/render.ts';

/** The results a run folder may hold: a certification holds each its stages ran, any other run its own. */
export type RunPart = 'conformance' | 'properties' | 'load';

export interface RunDocuments {
  dir: string;
  kind: 'certification' | RunPart;
  verdict: VerdictKey;
  /** The verdict of each result the folder holds, in the common words. */
  verdicts: Partial<Record<RunPart, VerdictKey>>;
  identity: RunIdentity;
  conformance: ConformanceResult | null;
  properties: PropertiesDocument | null;
  load: MaybeUnderFaults | null;
}

export class RunUnreadable extends Error {}

async function json<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new RunUnreadable(`${file}: ${(err as Error).message}`);
  }
}

export async function readRun(dir: string): Promise<RunDocuments> {
  const result = await json<{ schema?: string; format?: string }>(join(dir, RESULT_FILE));
  const none = { conformance: null, properties: null, load: null };
  if (result?.schema === CERTIFICATION_SCHEMA) {
    const r = result as CertificationResult;
    const stage = async <T>(name: string) => {
      const file = r.stages.find((s) => s.name === name)?.result_file;
      return file ? json<T>(join(dir, file)) : null;
    };
    const conformance = await stage<ConformanceResult>('conformance');
    const properties = await stage<PropertiesDocument>('properties');
    const load = await stage<MaybeUnderFaults>('load');
    return {
      dir,
      kind: 'certification',
      verdict: r.verdict,
      verdicts: {
        ...(conformance ? { conformance: conformance.verdict } : {}),
        ...(properties ? { properties: propertiesVerdictKey(properties.verdict) } : {}),
        ...(load ? { load: loadVerdictKey(load.verdict) } : {}),
      },
      identity: certificationIdentity(r),
      conformance,
      properties,
      load,
    };
  }
  if (result?.schema === 'fleetproof-conformance-result/v1') {
    const r = result as ConformanceResult;
    const verdict = r.verdict;
    return {
      dir,
      kind: 'conformance',
      verdict,
      verdicts: { conformance: verdict },
      identity: conformanceIdentity(r),
      ...none,
      conformance: r,
    };
  }
  if (result?.schema === 'fleetproof-properties-result/v1') {
    const r = result as PropertiesDocument;
    const verdict = propertiesVerdictKey(r.verdict);
    return { dir, kind: 'properties', verdict, verdicts: { properties: verdict }, identity: propertiesIdentity(r), ...none, properties: r };
  }
  const load = await json<MaybeUnderFaults>(join(dir, SUMMARY_FILE));
  if (load?.format === 'fleetproof-load-report/v1') {
    const verdict = loadVerdictKey(load.verdict);
    return { dir, kind: 'load', verdict, verdicts: { load: verdict }, identity: loadIdentity(load), ...none, load };
  }
  throw new RunUnreadable(
    `${dir} holds no fleetproof result (${RESULT_FILE} of a certification, conformance or property run, or a load run's ${SUMMARY_FILE})`,
  );
}
