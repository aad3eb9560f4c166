// Small statistics helpers shared by the benchmarks: they quote medians and
// nearest-rank percentiles, because the machine is shared and noisy.

/** Lower nearest-rank percentile: sorted[floor((n-1)·p/100)]; 0 for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(((sorted.length - 1) * p) / 100)]!;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
