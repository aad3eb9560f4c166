// JUnit XML, one writer for every command (conform, properties, load,
// certify) and one naming scheme, so a CI's test history sees the same test
// whichever command ran it: classname `fleetproof.<part>.<group>`, name the
// case id, property suite, threshold, phase or audit invariant. The shape is
// what the Jenkins junit-10 schema accepts (reports/junit/test/junit-10.xsd):
// no <properties> in a <testcase>, totals on <testsuites> without `skipped`
// (which that schema lacks), measured values in <system-out>.

export type Outcome =
  | { kind: 'pass' }
  | { kind: 'fail'; message: string; detail?: string; type?: string }
  | { kind: 'error'; message: string; detail?: string; type?: string }
  | { kind: 'skip'; message: string };

export interface JunitCase {
  classname: string;
  name: string;
  seconds: number;
  outcome: Outcome;
  /** What was measured (a threshold's value and limit, a suite's runs), shown by CI beside the result. */
  output?: string;
}

export interface JunitSuite {
  name: string;
  cases: JunitCase[];
  /** Wall time of the suite: not the sum of its cases when they ran at once. */
  seconds: number;
  timestamp?: string;
}

export function xmlEscape(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Seconds between two RFC 3339 instants: a wall time. */
export const spanSeconds = (startedAt: string, finishedAt: string) => Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)) / 1000;

const seconds = (s: number) => Math.max(0, s).toFixed(3);
const firstLine = (s: string) => s.split('\n')[0] ?? '';

function testcase(c: JunitCase): string {
  const o = c.outcome;
  let inner = '';
  if (o.kind === 'fail')
    inner = `<failure message="${xmlEscape(firstLine(o.message))}" type="${xmlEscape(o.type ?? 'failure')}">${xmlEscape(o.detail ?? o.message)}</failure>`;
  else if (o.kind === 'error')
    inner = `<error message="${xmlEscape(firstLine(o.message))}" type="${xmlEscape(o.type ?? 'error')}">${xmlEscape(o.detail ?? o.message)}</error>`;
  else if (o.kind === 'skip') inner = `<skipped message="${xmlEscape(firstLine(o.message))}"/>`;
  if (c.output) inner += `<system-out>${xmlEscape(c.output)}</system-out>`;
  return `    <testcase name="${xmlEscape(c.name)}" classname="${xmlEscape(c.classname)}" time="${seconds(c.seconds)}">${inner}</testcase>`;
}

function counts(cases: JunitCase[]): { tests: number; failures: number; errors: number; skipped: number } {
  const n = (kind: Outcome['kind']) => cases.filter((c) => c.outcome.kind === kind).length;
  return { tests: cases.length, failures: n('fail'), errors: n('error'), skipped: n('skip') };
}

/** The document: totals over every suite on <testsuites>, the run's wall time as its time. */
export function renderJunitXml(name: string, suites: JunitSuite[], wallSeconds: number): string {
  const all = counts(suites.flatMap((s) => s.cases));
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlEscape(name)}" tests="${all.tests}" failures="${all.failures}" errors="${all.errors}" time="${seconds(wallSeconds)}">`,
  ];
  for (const s of suites) {
    const c = counts(s.cases);
    const stamp = s.timestamp ? ` timestamp="${xmlEscape(s.timestamp)}"` : '';
    lines.push(
      `  <testsuite name="${xmlEscape(s.name)}" tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}" time="${seconds(s.seconds)}"${stamp}>`,
      ...s.cases.map(testcase),
      '  </testsuite>',
    );
  }
  lines.push('</testsuites>');
  return lines.join('\n') + '\n';
}
