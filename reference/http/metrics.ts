// Prometheus text exposition for GET /metrics ([ops-metrics]): request counts
// by operation and status, a latency histogram per operation, and the fleet
// aggregate as gauges. Recording is two map lookups and an array increment,
// so it costs the hot path next to nothing.
import type { FleetStatus } from '../../contract/records.ts';

const BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

export class HttpMetrics {
  private readonly requests = new Map<string, Map<number, number>>();
  private readonly latency = new Map<string, Histogram>();

  observe(operationId: string, status: number, seconds: number): void {
    let byStatus = this.requests.get(operationId);
    if (!byStatus) this.requests.set(operationId, (byStatus = new Map()));
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    let h = this.latency.get(operationId);
    if (!h) this.latency.set(operationId, (h = { counts: BUCKETS_SECONDS.map(() => 0), sum: 0, count: 0 }));
    // One count per observation in its own bucket; render() makes them cumulative.
    let i = 0;
    while (i < BUCKETS_SECONDS.length && seconds > BUCKETS_SECONDS[i]!) i++;
    if (i < BUCKETS_SECONDS.length) h.counts[i]!++;
    h.sum += seconds;
    h.count++;
  }

  render(fleet: FleetStatus | null): string {
    const lines: string[] = [
      '# HELP fleetproof_http_requests_total HTTP requests answered, by operation and status.',
      '# TYPE fleetproof_http_requests_total counter',
    ];
    for (const [op, byStatus] of this.requests) {
      for (const [status, n] of byStatus)
        lines.push(`fleetproof_http_requests_total{operation="${escapeLabel(op)}",status="${status}"} ${n}`);
    }
    lines.push(
      '# HELP fleetproof_http_request_duration_seconds Time from request start to response end, by operation.',
      '# TYPE fleetproof_http_request_duration_seconds histogram',
    );
    for (const [op, h] of this.latency) {
      const label = `operation="${escapeLabel(op)}"`;
      let cumulative = 0;
      BUCKETS_SECONDS.forEach((le, i) => {
        cumulative += h.counts[i]!;
        lines.push(`fleetproof_http_request_duration_seconds_bucket{${label},le="${le}"} ${cumulative}`);
      });
      lines.push(`fleetproof_http_request_duration_seconds_bucket{${label},le="+Inf"} ${h.count}`);
      lines.push(`fleetproof_http_request_duration_seconds_sum{${label}} ${h.sum}`);
      lines.push(`fleetproof_http_request_duration_seconds_count{${label}} ${h.count}`);
    }
    if (fleet) {
      for (const [name, value] of Object.entries(fleet)) {
        if (typeof value !== 'number') continue;
        lines.push(`# TYPE fleetproof_fleet_${name} gauge`, `fleetproof_fleet_${name} ${value}`);
      }
    }
    return lines.join('\n') + '\n';
  }
}
