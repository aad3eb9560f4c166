// The junit.xml of every command (conform, properties, load, certify), as
// each command's own renderer writes it, against the published Jenkins
// junit-10 schema (junit-10.xsd beside this file), validated by libxml2's XSD
// engine; a file the schema refuses is refused; the same case
// under the same classname and name whichever command wrote it; totals that
// add up; a category's time its wall span, not the sum of concurrent cases;
// stages that never ran skipped as report.md says; thresholds with their
// value and limit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderCertificationJunit } from '../../certification/render-junit.ts';
import type { FaultsDocument } from '../../schemas/faults-result.ts';
import { loadJunit } from '../../load/write-load-report.ts';
import { renderJunitXml } from '../junit.ts';
import { conformanceSuites } from '../../conformance/junit-suites.ts';
import { propertiesSuite } from '../suites.ts';
import { sampleCertification, sampleConformance, sampleLoad, sampleProperties } from '../../test/sample-documents.ts';
import { junitSchemaProblems } from './junit-xsd.ts';
import { parseXml, type XmlElement } from './read-xml.ts';

const conformance = sampleConformance();
const load = sampleLoad();
const properties = sampleProperties();
const certification = sampleCertification(conformance);

const files: Record<string, string> = {
  conform: renderJunitXml(
    `fleetproof conform ${conformance.run_id}`,
    conformanceSuites(conformance),
    conformance.timings.duration_ms / 1000,
  ),
  properties: renderJunitXml('fleetproof properties', [propertiesSuite(properties)], 9),
  load: loadJunit(load),
  certify: renderCertificationJunit(certification, { conformance, properties, load }),
};

const testcases = (root: XmlElement): XmlElement[] => root.children.flatMap((s) => s.children.filter((c) => c.name === 'testcase'));
const ids = (root: XmlElement) => new Set(testcases(root).map((c) => `${c.attrs['classname']} ${c.attrs['name']}`));

describe('junit.xml', () => {
  for (const [command, xml] of Object.entries(files)) {
    it(`${command}: valid under junit-10.xsd, with totals that add up`, async () => {
      assert.deepEqual(await junitSchemaProblems(xml), []);
      const root = parseXml(xml);
      const cases = testcases(root);
      const kind = (name: string) => cases.filter((c) => c.children.some((x) => x.name === name)).length;
      assert.equal(Number(root.attrs['tests']), cases.length);
      assert.equal(Number(root.attrs['failures']), kind('failure'));
      assert.equal(Number(root.attrs['errors']), kind('error'));
      for (const suite of root.children)
        assert.equal(Number(suite.attrs['tests']), suite.children.filter((c) => c.name === 'testcase').length);
      for (const c of cases) assert.match(c.attrs['classname']!, /^fleetproof\.(conformance|properties|faults|load)(\.|$)/);
      const names = root.children.map((s) => s.attrs['name']);
      assert.deepEqual(
        names.filter((n, i) => names.indexOf(n) !== i),
        [],
        'every suite name once',
      );
    });
  }

  it('names a case the same whichever command ran it', () => {
    const certify = ids(parseXml(files['certify']!));
    for (const command of ['conform', 'properties', 'load']) {
      const missing = [...ids(parseXml(files[command]!))].filter((id) => !certify.has(id));
      assert.deepEqual(missing, [], `${command} cases certify names otherwise`);
    }
  });

  it('times a category by its wall span, and the run by its duration', () => {
    const root = parseXml(files['conform']!);
    assert.equal(root.attrs['time'], '15.000');
    const settlement = root.children.find((s) => s.attrs['name'] === 'conformance.settlement')!;
    const summed = testcases({ ...root, children: [settlement] }).reduce((n, c) => n + Number(c.attrs['time']), 0);
    // 185 cases of 12 ms each, all started at once: 0.012 s of wall time, not 2.2 s.
    assert.equal(settlement.attrs['time'], '0.012');
    assert.ok(summed > 2);
  });

  it('carries each threshold’s value and limit', () => {
    const root = parseXml(files['load']!);
    const p99 = testcases(root).find((c) => c.attrs['name'] === 'route p99')!;
    assert.match(p99.children.find((c) => c.name === 'failure')!.attrs['message']!, /value 61 ms, limit 50/);
    const met = testcases(root).find((c) => c.attrs['name']!.startsWith('no overbooking'))!;
    assert.match(met.children.find((c) => c.name === 'system-out')!.text, /count==0: value 0, limit 0/);
  });

  it('skips a stage that was not reached and errors one that could not run, as report.md says', async () => {
    const r = {
      ...certification,
      stages: certification.stages
        .filter((s) => s.name !== 'faults')
        .map((s, i) =>
          i === 0
            ? { ...s, status: 'could-not-run' as const, reasons: ['the target went away'] }
            : { ...s, status: 'skipped' as const, reasons: ['not reached'] },
        ),
    };
    const xml = renderCertificationJunit(r, { conformance: null, properties: null, load: null });
    assert.deepEqual(await junitSchemaProblems(xml), []);
    const root = parseXml(xml);
    assert.deepEqual(
      testcases(root).map((c) => [c.attrs['name'], c.children[0]!.name]),
      [
        ['conformance stage', 'error'],
        ['properties stage', 'skipped'],
        ['load stage', 'skipped'],
      ],
    );
  });

  it('gives every stage a verdict case, so a faults stage failed by its sweep fails in junit.xml though its suites passed', async () => {
    const passing = { ...properties, suites: properties.suites.filter((x) => x.status === 'pass') };
    const faults = {
      ...certification.stages[1]!,
      name: 'faults' as const,
      status: 'failed' as const,
      reasons: ['the sweep after the faults found 1 violation(s)'],
    };
    const r = { ...certification, stages: [certification.stages[1]!, faults] };
    const xml = renderCertificationJunit(r, {
      conformance: null,
      properties: passing,
      faults: { properties: passing } as unknown as FaultsDocument,
      load: null,
    });
    assert.deepEqual(await junitSchemaProblems(xml), []);
    const verdicts = testcases(parseXml(xml)).filter((c) => / stage$/.test(c.attrs['name']!));
    assert.deepEqual(
      verdicts.map((c) => [c.attrs['name'], c.children[0]?.name ?? 'pass']),
      [
        ['properties stage', 'pass'],
        ['faults stage', 'failure'],
      ],
    );
    assert.match(verdicts[1]!.children[0]!.attrs['message']!, /the sweep after the faults found 1 violation/);
  });

  it('refuses what the schema refuses: the check can fail', async () => {
    const bad =
      '<?xml version="1.0"?><testsuites skipped="1"><testsuite name="x" tests="1" failures="0" time="1.5s"><testcase name="a"><properties><property name="k" value="v"/></properties></testcase></testsuite></testsuites>';
    const problems = await junitSchemaProblems(bad);
    for (const expected of [
      /attribute 'skipped': The attribute 'skipped' is not allowed/,
      /attribute 'time': \[facet 'pattern'\] The value '1\.5s'/,
      /The attribute 'errors' is required but missing/,
      /Element 'properties': This element is not expected/,
    ]) {
      assert.ok(
        problems.some((p) => expected.test(p)),
        `${expected} among ${JSON.stringify(problems)}`,
      );
    }
    // A file each command writes, broken in one place, is refused too.
    assert.notDeepEqual(await junitSchemaProblems(files['certify']!.replace(/(<testsuite [^>]*?) errors="\d+"/, '$1')), []);
    assert.notDeepEqual(await junitSchemaProblems(files['conform']!.replace('</testsuites>', '')), [], 'a file that is not well-formed');
  });
});
