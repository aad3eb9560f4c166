// The k6-style end-of-test summary: each threshold marked with its value and
// limit, each metric with count, rate and percentiles, the verdict in the
// reports' words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderTerminalSummary } from '../load/terminal-summary.ts';
import { sampleLoad } from './sample-documents.ts';

test('prints thresholds marked, metrics with percentiles, and the verdict', () => {
  const text = renderTerminalSummary(sampleLoad());
  assert.match(text, /✗ route p99: http_req_duration\{operation:resolve\} p\(99\)<50 → 61\.0 ms \(limit 50\)/);
  assert.match(text, /✓ catalog p95: .* → 12\.5 ms \(limit 100\)/);
  assert.match(
    text,
    /http_req_duration\.+: count=3000 avg=10\.0ms p\(50\)=6\.00ms p\(90\)=43\.0ms p\(95\)=45\.0ms p\(99\)=50\.0ms max=55\.0ms/,
  );
  assert.match(text, /http_req_failed\.+: 0\.20% 6 out of 3000/);
  assert.match(text, /http_reqs\.+: 3000 100\/s/);
  assert.match(text, /data_received\.+: 622 kB 16\.4 kB\/s/);
  assert.match(text, /\n {2}NON-CONFORMANT\n/);
});

test('a pass with overrides (a partial run, a --set) says it qualifies nothing', () => {
  const partial = { ...sampleLoad(), verdict: 'pass' as const, reasons: [], overrides: ['phases=seed,catalog_walk'] };
  assert.match(
    renderTerminalSummary(partial),
    /\n {2}QUALIFIED \(ran with phases=seed,catalog_walk: not a qualification of the profile\)\n/,
  );
  assert.match(renderTerminalSummary({ ...partial, overrides: [] }), /\n {2}QUALIFIED\n/);
});

test('a part of a distributed run gives no verdict of its own', () => {
  const part = { ...sampleLoad(), verdict: 'could-not-judge' as const };
  const text = renderTerminalSummary(part, { part: true });
  assert.match(text, /\n {2}PART WRITTEN: no verdict until the parts are merged \(fleetproof report --merge\)\n/);
  assert.doesNotMatch(text, /COULD NOT JUDGE/);
  assert.match(renderTerminalSummary({ ...part, verdict: 'could-not-run' }, { part: true }), /\n {2}COULD NOT RUN\n/);
});
