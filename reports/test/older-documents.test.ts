// Documents written by a harness before the reports named the contract
// revision, the case set and the rerun command, before failures were
// replayed and quoted their clause, and before the load report described its
// profile and the load machine's load, still render: every page and its
// Markdown says what was not recorded instead of failing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderCertificationHtml } from '../certification/render-html.ts';
import { renderCertificationMarkdown } from '../certification/render-md.ts';
import { renderHtml } from '../conformance/render-html.ts';
import { renderMarkdown } from '../conformance/render-md.ts';
import { renderLoadHtml } from '../load/render-html.ts';
import { renderLoadMarkdown } from '../load/render-markdown.ts';
import { renderPropertiesHtml, renderPropertiesMarkdown } from '../properties/render.ts';
import { sampleCertification, sampleConformance, sampleFaults, sampleLoad, sampleProperties } from './sample-documents.ts';

/** The members added since, where each document has them. */
const ADDED = ['contract_revision', 'case_set', 'rerun', 'kept_data', 'profile_info'];

function older<T extends object>(doc: T): T {
  const copy = structuredClone(doc) as Record<string, unknown> & {
    contract?: { revision?: unknown };
    cases?: Array<{ clause_text?: unknown; replay?: unknown }>;
    failures?: Array<{ clause_text?: unknown }>;
    harness?: { commit?: unknown };
    environment?: { machine?: { load_average?: unknown } };
    schema?: string;
  };
  for (const key of ADDED) delete copy[key];
  if (typeof copy.contract === 'object') delete copy.contract.revision;
  for (const c of copy.cases ?? []) {
    delete c.clause_text;
    delete c.replay;
  }
  for (const f of copy.failures ?? []) delete f.clause_text;
  if (copy.schema === 'fleetproof-properties-result/v1') delete copy.harness?.commit;
  delete copy.environment?.machine?.load_average;
  return copy as T;
}

describe('documents of an older harness', () => {
  it('render, saying what they did not record', () => {
    const conformance = older(sampleConformance());
    const faults = sampleFaults();
    assert.equal(
      conformance.cases.some((c) => c.replay !== undefined || c.clause_text !== undefined),
      false,
      'the fixture is old',
    );
    const load = older(sampleLoad());
    const pages = [
      renderHtml(conformance),
      renderCertificationHtml(older(sampleCertification(sampleConformance())), load, faults, conformance),
      renderLoadHtml(load),
      renderPropertiesHtml(older(sampleProperties())),
    ];
    for (const html of pages) {
      assert.match(html, /<dt>Contract<\/dt><dd><span class="muted">not recorded/);
      assert.match(html, /The command that reruns this run was not recorded/);
      assert.match(html, /<\/body><\/html>\n$/);
    }
    const markdown = [
      renderMarkdown(conformance),
      renderCertificationMarkdown(older(sampleCertification(sampleConformance()))),
      renderLoadMarkdown(load),
      renderPropertiesMarkdown(older(sampleProperties())),
    ];
    for (const md of markdown) assert.match(md, /- contract: not recorded\n- case set: not recorded/);
  });
});
