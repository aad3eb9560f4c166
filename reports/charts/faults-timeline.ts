// The faults stage's timeline, in the manner of Jepsen's plots: latency,
// throughput and errors per second through the proxy on one time axis, with
// every fault a shaded band across all three panels.
import { escapeXml } from './svg.ts';
import { linearAxis, xyChart } from './xy-chart.ts';
import type { FaultBandRow, FaultsDocument, TrafficRow } from '../schemas/faults-result.ts';
import { table } from '../look.ts';

const COLORS: Record<string, string> = {
  proxy: '#ffcc80',
  storage: '#ef9a9a',
  process: '#ce93d8',
  'pg-terminate': '#90caf9',
  'pg-restart': '#ef9a9a',
  'process-kill': '#ce93d8',
};
const bandColor = (fault: string) => COLORS[fault] ?? '#b0bec5';

const describeBand = (b: FaultBandRow) =>
  `${b.fault} ${b.start}–${b.end} ms${b.recovery_ms !== null ? `, ready ${b.recovery_ms} ms after the heal` : ''}`;

export function faultsTimeline(doc: Pick<FaultsDocument, 'bands' | 'traffic'>): string {
  const traffic: TrafficRow[] = doc.traffic;
  if (traffic.length === 0) return '<p class="muted">No traffic went through the proxy.</p>';
  const seconds = Math.max(traffic.length, ...doc.bands.map((b) => Math.ceil(b.end / 1000)));
  const per = (f: (t: TrafficRow) => number) => traffic.map((t) => [t.second, f(t)] as const);
  const panel = (title: string, name: string, color: string, values: ReadonlyArray<readonly [number, number]>, height: number) => ({
    title,
    height,
    y: linearAxis(Math.max(...values.map(([, v]) => v)), title),
    series: [{ kind: 'step' as const, name, color, step: 1, points: values }],
  });
  return xyChart({
    label: 'latency, requests and errors per second through the proxy, faults shaded',
    caption: 'Through the proxy, second by second; every fault shaded',
    x: { ...linearAxis(seconds, ''), title: 'seconds into the faults stage' },
    panels: [
      panel(
        'latency, ms (mean per second)',
        'latency',
        '#1565c0',
        per((t) => t.latency_ms_mean),
        110,
      ),
      panel(
        'requests per second',
        'requests',
        '#6a1b9a',
        per((t) => t.requests),
        90,
      ),
      panel(
        'errors per second (5xx, resets, lost answers)',
        'errors',
        '#c62828',
        per((t) => t.errors),
        70,
      ),
    ],
    xBands: doc.bands.map((b) => ({ from: b.start / 1000, to: b.end / 1000, color: bandColor(b.fault), title: describeBand(b) })),
    legend: [...new Set(doc.bands.map((b) => b.fault))].map((f) => ({ name: f, color: bandColor(f), style: 'area' as const })),
  });
}

/** Every fault with its time and recovery, folded away under the timeline. */
export function faultBandsDetails(bands: readonly FaultBandRow[]): string {
  const rows = bands.map((b) => [
    escapeXml(b.fault),
    `${b.start}–${b.end} ms`,
    b.recovery_ms === null ? 'n/a' : `${b.recovery_ms} ms`,
    escapeXml(b.error ?? ''),
  ]);
  return `<details><summary>Every fault (${bands.length})</summary>${table(['fault', 'when', 'ready after the heal', 'error'], rows)}</details>`;
}
