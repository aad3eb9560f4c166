// JUnit XML for CI: one <testsuite> per category, one <testcase> per case
// (name = case id, the clause in its properties and in the failure text).
import type { CaseResult, ConformanceResult } from '../../conformance/runner/result.ts';
import { exchangeText } from './exchange-text.ts';

export function xmlEscape(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function testcase(c: CaseResult): string {
  const attrs = `name="${xmlEscape(c.id)}" classname="fleetproof.conformance.${xmlEscape(c.category)}" time="${(c.duration_ms / 1000).toFixed(3)}"`;
  const props = `<properties><property name="clause" value="${xmlEscape(c.clause)}"/><property name="severity" value="${xmlEscape(c.severity ?? 'unknown')}"/></properties>`;
  const detail = () => {
    const parts = [`clause: [${c.failure_clause ?? c.clause}]`, c.message ?? ''];
    if (c.exchange) parts.push('', exchangeText(c.exchange));
    return xmlEscape(parts.join('\n'));
  };
  let inner = props;
  if (c.status === 'fail') inner += `<failure message="${xmlEscape(c.message ?? 'failed')}" type="ConformanceFailure">${detail()}</failure>`;
  else if (c.status === 'error') inner += `<error message="${xmlEscape(c.message ?? 'error')}" type="HarnessError">${detail()}</error>`;
  else if (c.status === 'skip') inner += `<skipped message="${xmlEscape(c.message ?? 'skipped')}"/>`;
  return `    <testcase ${attrs}>${inner}</testcase>`;
}

export function renderJunit(result: ConformanceResult): string {
  const suites = new Map<string, CaseResult[]>();
  for (const c of result.cases) suites.set(c.category, [...(suites.get(c.category) ?? []), c]);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const s = result.summary;
  lines.push(`<testsuites name="fleetproof conformance ${xmlEscape(result.run_id)}" tests="${s.total}" failures="${s.fail}" errors="${s.error}" skipped="${s.skip}" time="${(result.timings.duration_ms / 1000).toFixed(3)}">`);
  for (const [category, cases] of suites) {
    const count = (status: string) => cases.filter((c) => c.status === status).length;
    const time = cases.reduce((n, c) => n + c.duration_ms, 0) / 1000;
    lines.push(`  <testsuite name="${xmlEscape(category)}" tests="${cases.length}" failures="${count('fail')}" errors="${count('error')}" skipped="${count('skip')}" time="${time.toFixed(3)}" timestamp="${result.timings.started_at}">`);
    lines.push(...cases.map(testcase));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n') + '\n';
}
