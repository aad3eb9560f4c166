// The faults timeline shades every fault across all three panels on one time
// axis and draws one line per panel; without traffic it says so instead of
// drawing nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { faultsTimeline } from '../charts/faults-timeline.ts';

const traffic = [0, 1, 2, 3].map((second) => ({
  second,
  requests: 10 + second,
  errors: second % 2,
  latency_ms_mean: 5,
  latency_ms_max: 9,
}));
const bands = [
  { fault: 'proxy', start: 500, end: 1500, recovery_ms: 4, error: null },
  { fault: 'pg-restart', start: 2000, end: 3000, recovery_ms: 800, error: null },
];

describe('the faults timeline', () => {
  it('shades each fault in every panel, with its recovery in the tooltip', () => {
    const html = faultsTimeline({ bands, traffic });
    assert.equal((html.match(/<div class="plot"/g) ?? []).length, 3, 'three panels');
    assert.equal((html.match(/<div class="xaxis">/g) ?? []).length, 1, 'on one time axis');
    for (const color of ['#1565c0', '#6a1b9a', '#c62828'])
      assert.equal((html.match(new RegExp(`<path d="M[^"]+" stroke="${color}"`, 'g')) ?? []).length, 1, `the line in ${color}`);
    assert.equal((html.match(/<title>proxy 500–1500 ms, ready 4 ms after the heal<\/title>/g) ?? []).length, 3);
    assert.equal((html.match(/<title>pg-restart /g) ?? []).length, 3);
    assert.match(html, /<span class="key">[^]*?pg-restart<\/span>/, 'the legend names each kind of fault');
  });

  it('says when no traffic went through the proxy', () => {
    assert.match(faultsTimeline({ bands, traffic: [] }), /No traffic/);
  });
});
