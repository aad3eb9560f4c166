import { defineCase } from '../../harness/define-case.ts';
import { expectOk, expectTrue } from '../../harness/expect.ts';
import { isPrometheusSample } from '../../harness/prometheus.ts';

export default defineCase({
  id: 'operations/metrics-are-prometheus-text',
  clause: 'ops-metrics',
  category: 'operations',
  features: ['metrics'],
  description: 'GET /metrics serves Prometheus text exposition without a token',
  async run(ctx) {
    const reply = await ctx.anonymous.call('getMetrics');
    expectOk(reply);
    expectTrue((reply.headers['content-type'] ?? '').startsWith('text/plain'), 'content type text/plain', reply.exchange);
    const lines = reply.text.split('\n').filter((l) => l.trim() !== '');
    const samples = lines.filter((l) => !l.startsWith('#'));
    expectTrue(samples.length > 0, 'at least one sample', reply.exchange);
    const bad = samples.filter((l) => !isPrometheusSample(l));
    expectTrue(bad.length === 0, `lines that are not samples: ${bad.slice(0, 3).join(' | ')}`, reply.exchange);
  },
});
