// Mergeable distributions for the values of a k6 trend, and an exact sum.
//
// A histogram is a pure function of the multiset of values it was given:
// the same values split across any number of instances and merged back by
// adding counts give the same histogram, hence the same quantiles, bit for
// bit. Two representations, chosen by that multiset alone:
//
//   exact       every distinct value with its count, while the values hold
//               at most EXACT_MAX_DISTINCT distinct values. Quantiles are
//               k6's own (linear interpolation between the closest ranks).
//   log-linear  past that, each value is counted in the bucket made by
//               keeping the sign, the exponent and the top SUB_BUCKET_BITS
//               bits of the mantissa of its IEEE-754 double: 2^10 buckets
//               per power of two, each 2^-10 of its lower bound wide (the
//               layout of an HDR histogram with three significant digits,
//               taken straight from the bits, so no logarithm and no rounding
//               decides a bucket). A quantile reads the bucket midpoints,
//               clamped to the exact min and max, and interpolates between
//               ranks as k6 does; each value it reads is within
//               RELATIVE_ERROR = 2^-11 (0.049 %) of the true value, and so
//               is the interpolation between two values of the same sign.
//               Values below 2^-1032 in magnitude read as 0.
//
// Merging an exact histogram into another keeps it exact only while the
// union stays within the limit, so the choice never depends on how the
// values were split.

export const EXACT_MAX_DISTINCT = 1024;
export const SUB_BUCKET_BITS = 10;
export const RELATIVE_ERROR = 2 ** -(SUB_BUCKET_BITS + 1);

const view = new DataView(new ArrayBuffer(8));

/** The bucket of a finite value: ordered as the values are. */
export function bucketOf(v: number): number {
  view.setFloat64(0, Math.abs(v));
  const magnitude = view.getUint32(0) >>> (20 - SUB_BUCKET_BITS);
  return v < 0 ? -magnitude - 1 : magnitude;
}

function lowerBoundOfMagnitude(magnitude: number): number {
  view.setUint32(0, magnitude << (20 - SUB_BUCKET_BITS));
  view.setUint32(4, 0);
  return view.getFloat64(0);
}

/** The value a bucket stands for: its midpoint (0 for the bucket holding 0). */
export function bucketValue(bucket: number): number {
  const magnitude = bucket < 0 ? -bucket - 1 : bucket;
  if (magnitude === 0) return 0;
  const mid = (lowerBoundOfMagnitude(magnitude) + lowerBoundOfMagnitude(magnitude + 1)) / 2;
  return bucket < 0 ? -mid : mid;
}

export type HistogramJson =
  | { mode: 'exact'; values: number[]; counts: number[] }
  | { mode: 'log-linear'; sub_bucket_bits: number; buckets: number[]; counts: number[] };

export class ValueHistogram {
  /** value → count while exact; null once bucketed. */
  private exact: Map<number, number> | null = new Map();
  /** bucket → count once bucketed. */
  private buckets: Map<number, number> | null = null;

  get mode(): 'exact' | 'log-linear' {
    return this.exact ? 'exact' : 'log-linear';
  }

  add(value: number, count = 1): void {
    if (this.exact) {
      // -0 and 0 are one value.
      const v = value === 0 ? 0 : value;
      this.exact.set(v, (this.exact.get(v) ?? 0) + count);
      if (this.exact.size > EXACT_MAX_DISTINCT) this.toBuckets();
      return;
    }
    const b = bucketOf(value);
    this.buckets!.set(b, (this.buckets!.get(b) ?? 0) + count);
  }

  private toBuckets(): void {
    const exact = this.exact!;
    this.exact = null;
    this.buckets = new Map();
    for (const [v, c] of exact) this.add(v, c);
  }

  merge(other: ValueHistogram): void {
    if (other.exact) {
      for (const [v, c] of other.exact) this.add(v, c);
      return;
    }
    if (this.exact) this.toBuckets();
    for (const [b, c] of other.buckets!) this.buckets!.set(b, (this.buckets!.get(b) ?? 0) + c);
  }

  /** (value, count) pairs in ascending order; bucket midpoints once bucketed. */
  entries(): [number, number][] {
    if (this.exact) return [...this.exact].sort((a, b) => a[0] - b[0]);
    return [...this.buckets!].sort((a, b) => a[0] - b[0]).map(([b, c]) => [bucketValue(b), c]);
  }

  /**
   * k6's percentile (TrendSink.P): rank i = p/100 × (n − 1), linear
   * interpolation between the values at ranks ⌊i⌋ and ⌈i⌉. The lowest and
   * highest ranks read the exact min and max.
   */
  percentile(pct: number, min: number, max: number): number {
    const entries = this.entries();
    const n = entries.reduce((s, [, c]) => s + c, 0);
    if (n === 0) return 0;
    if (n === 1) return min;
    const i = (pct / 100) * (n - 1);
    const lo = Math.floor(i);
    const hi = Math.ceil(i);
    const at = (rank: number): number => {
      if (rank <= 0) return min;
      if (rank >= n - 1) return max;
      let seen = 0;
      for (const [v, c] of entries) {
        seen += c;
        if (rank < seen) return Math.min(max, Math.max(min, v));
      }
      return max;
    };
    const lower = at(lo);
    const upper = at(hi);
    return lower + (upper - lower) * (i - lo);
  }

  toJSON(): HistogramJson {
    if (this.exact) {
      const e = this.entries();
      return { mode: 'exact', values: e.map((x) => x[0]), counts: e.map((x) => x[1]) };
    }
    const b = [...this.buckets!].sort((x, y) => x[0] - y[0]);
    return { mode: 'log-linear', sub_bucket_bits: SUB_BUCKET_BITS, buckets: b.map((x) => x[0]), counts: b.map((x) => x[1]) };
  }

  static fromJSON(j: HistogramJson): ValueHistogram {
    const h = new ValueHistogram();
    if (j.mode === 'exact') {
      if (j.values.length !== j.counts.length) throw new Error('histogram: values and counts differ in length');
      j.values.forEach((v, k) => h.add(v, j.counts[k]!));
      return h;
    }
    if (j.sub_bucket_bits !== SUB_BUCKET_BITS)
      throw new Error(`histogram with ${j.sub_bucket_bits} sub-bucket bits; this harness uses ${SUB_BUCKET_BITS}`);
    if (j.buckets.length !== j.counts.length) throw new Error('histogram: buckets and counts differ in length');
    h.exact = null;
    h.buckets = new Map();
    j.buckets.forEach((b, k) => h.buckets!.set(b, (h.buckets!.get(b) ?? 0) + j.counts[k]!));
    return h;
  }
}

/**
 * An exact running sum (Shewchuk's partials, as Python's math.fsum): the
 * partials add up to the true sum of every value exactly, so merging the
 * partials of several sums and rounding once gives the correctly rounded
 * total whatever the order or the split.
 */
export class ExactSum {
  partials: number[] = [];

  add(x: number): void {
    const p = this.partials;
    let i = 0;
    for (let y of p) {
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) p[i++] = lo;
      x = hi;
    }
    p.length = i;
    p.push(x);
  }

  merge(other: ExactSum): void {
    for (const x of other.partials) this.add(x);
  }

  /** The sum rounded once to the nearest double (ties to even). */
  value(): number {
    const p = this.partials;
    let n = p.length;
    if (n === 0) return 0;
    let hi = p[--n]!;
    let lo = 0;
    while (n > 0) {
      const x = hi;
      const y = p[--n]!;
      hi = x + y;
      lo = y - (hi - x);
      if (lo !== 0) break;
    }
    if (n > 0 && ((lo < 0 && p[n - 1]! < 0) || (lo > 0 && p[n - 1]! > 0))) {
      const y = lo * 2;
      const x = hi + y;
      if (y === x - hi) hi = x;
    }
    return hi;
  }

  static of(partials: number[]): ExactSum {
    const s = new ExactSum();
    for (const x of partials) s.add(x);
    return s;
  }
}
