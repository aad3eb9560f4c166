// Threshold syntax and evaluation of the Node runner, against k6's rules.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aggregationValue, MetricStore, type Sample } from '../metrics.ts';
import { checkAggregations, evaluateThresholds, parseExpression, parseSelector, parseThresholds, ThresholdError } from '../thresholds.ts';

const sample = (metric: string, type: Sample['type'], value: number, tags: Record<string, string> = {}, at = 0): Sample => ({
  metric,
  type,
  time: type === 'trend',
  value,
  tags,
  at,
});

test('selectors split the metric from tag filters, keeping colons in values', () => {
  assert.deepEqual(parseSelector('http_req_duration{phase:routes, operation:resolve}'), {
    key: 'http_req_duration{phase:routes, operation:resolve}',
    metric: 'http_req_duration',
    filter: { phase: 'routes', operation: 'resolve' },
  });
  assert.deepEqual(parseSelector('group_duration{group:::checkout}').filter, { group: '::checkout' });
  assert.throws(() => parseSelector('http_reqs{phase}'), ThresholdError);
  assert.throws(() => parseSelector('http_reqs{phase:x'), ThresholdError);
});

test('expressions parse aggregation, operator and limit; garbage is refused', () => {
  assert.deepEqual(
    { ...parseExpression('p(99.9) <= 3000') },
    { source: 'p(99.9) <= 3000', aggregation: 'p(99.9)', operator: '<=', limit: 3000, abortOnFail: false, delayAbortEvalMs: 0 },
  );
  assert.equal(parseExpression('count==0').operator, '==');
  assert.throws(() => parseExpression('p99<3'), ThresholdError);
  assert.throws(() => parseExpression('avg < fast'), ThresholdError);
  const [set] = parseThresholds({ checks: [{ threshold: 'rate>0.9', abortOnFail: true, delayAbortEval: '10s' }] });
  assert.equal(set!.expressions[0]!.abortOnFail, true);
  assert.equal(set!.expressions[0]!.delayAbortEvalMs, 10000);
});

test("percentiles interpolate between closest ranks as k6's trend sink does", () => {
  const trend = (values: number[]) => {
    const store = new MetricStore();
    store.declare('t', 'trend', true);
    for (const v of values) store.add(sample('t', 'trend', v, {}));
    return (aggregation: string) => aggregationValue(store.aggregate('t')!, aggregation, 1000);
  };
  const ten = trend([7, 1, 2, 3, 4, 5, 6, 8, 9, 10]);
  assert.deepEqual(['p(50)', 'med', 'p(90)', 'p(100)'].map(ten), [5.5, 5.5, 9.1, 10]);
  assert.equal(trend([7])('p(99)'), 7);
  assert.equal(trend([])('p(99)'), 0);
});

test('tag-filtered thresholds see only the matching samples', () => {
  const store = new MetricStore();
  for (let i = 1; i <= 100; i++) store.add(sample('http_req_duration', 'trend', i, { phase: 'fast', operation: 'resolve' }));
  for (let i = 1; i <= 10; i++) store.add(sample('http_req_duration', 'trend', 1000 * i, { phase: 'slow', operation: 'resolve' }));
  store.add(sample('http_req_duration', 'trend', 1_000_000, { phase: 'fast', operation: 'settle' }));
  const sets = parseThresholds({
    'http_req_duration{phase:fast,operation:resolve}': ['p(99)<100', 'max<=100', 'med==50.5'],
    'http_req_duration{phase:slow}': ['min>=1000', 'avg<5000'],
    http_req_duration: ['max<1000'],
  });
  const verdicts = evaluateThresholds(sets, store, 1000);
  assert.deepEqual(
    verdicts.map((v) => [v.source, v.ok]),
    [
      ['p(99)<100', true],
      ['max<=100', true],
      ['med==50.5', true],
      ['min>=1000', true],
      ['avg<5000', false],
      ['max<1000', false],
    ],
  );
  assert.equal(verdicts[0]!.value, 99.01);
});

test('counters, rates and gauges aggregate as k6 does; an empty metric reads zero, an empty rate fails nothing', () => {
  const store = new MetricStore();
  store.declare('unused', 'counter', false);
  store.declare('idle', 'gauge', false);
  store.declare('untried', 'rate', false);
  for (const v of [1, 0, 1, 1]) store.add(sample('checks', 'rate', v, { phase: 'a' }));
  store.add(sample('checks', 'rate', 0, { phase: 'b' }));
  store.add(sample('errors', 'counter', 2, { code: 'X' }));
  store.add(sample('errors', 'counter', 3, { code: 'Y' }));
  store.add(sample('spread', 'gauge', 5, {}, 1));
  store.add(sample('spread', 'gauge', 2, {}, 2));
  const verdicts = evaluateThresholds(
    parseThresholds({
      'checks{phase:a}': 'rate==0.75',
      'checks{phase:b}': 'rate==1',
      errors: ['count==5', 'rate==2.5'],
      'errors{code:Y}': 'count==3',
      spread: 'value==2',
      unused: ['count==0', 'count>5'],
      idle: 'value>5',
      // k6 v1.3.0 gives a rate without samples no value, and a threshold on it holds whatever it says.
      untried: ['rate==1', 'rate>=1', 'rate<0.5'],
      'checks{phase:none}': 'rate==1',
    }),
    store,
    2000,
  );
  assert.deepEqual(
    verdicts.map((v) => [v.key, v.source, v.ok]),
    [
      ['checks{phase:a}', 'rate==0.75', true],
      ['checks{phase:b}', 'rate==1', false],
      ['errors', 'count==5', true],
      ['errors', 'rate==2.5', true],
      ['errors{code:Y}', 'count==3', true],
      ['spread', 'value==2', true],
      ['unused', 'count==0', true],
      ['unused', 'count>5', false],
      ['idle', 'value>5', false],
      ['untried', 'rate==1', true],
      ['untried', 'rate>=1', true],
      ['untried', 'rate<0.5', true],
      ['checks{phase:none}', 'rate==1', true],
    ],
  );
  assert.equal(verdicts.find((v) => v.key === 'untried')!.value, undefined, 'an empty rate has no value to show');
});

test('while the run goes on (abortOnFail), a metric without samples is not judged, as in k6', () => {
  const store = new MetricStore();
  store.declare('routes', 'counter', false);
  store.add(sample('http_req_duration', 'trend', 50, { step: 'one' }));
  const sets = parseThresholds({
    routes: 'count>5',
    'http_req_duration{step:two}': 'p(99)>100',
    'http_req_duration{step:one}': 'p(99)>100',
  });
  assert.deepEqual(
    evaluateThresholds(sets, store, 1000, true).map((v) => [v.key, v.ok]),
    [['http_req_duration{step:one}', false]],
  );
  assert.deepEqual(
    evaluateThresholds(sets, store, 1000).map((v) => [v.key, v.ok]),
    [
      ['routes', false],
      ['http_req_duration{step:two}', false],
      ['http_req_duration{step:one}', false],
    ],
  );
});

test('an aggregation the metric type lacks is refused before the run', () => {
  const typeOf = (m: string) => (m === 'checks' ? 'rate' : m === 'http_reqs' ? 'counter' : undefined) as 'rate' | 'counter' | undefined;
  assert.throws(() => checkAggregations(parseThresholds({ checks: 'p(95)<1' }), typeOf), /not an aggregation of rate/);
  assert.throws(() => checkAggregations(parseThresholds({ http_reqs: 'avg<1' }), typeOf), /not an aggregation of counter/);
  assert.throws(() => checkAggregations(parseThresholds({ nothing: 'count<1' }), typeOf), /unknown metric/);
  assert.doesNotThrow(() => checkAggregations(parseThresholds({ 'http_reqs{phase:x}': 'count>=0' }), typeOf));
});
