// A distributed run's share of the work, with k6's semantics: an execution
// segment ("1/2:1") within a sequence ("0,1/2,1") that every part of the run
// shares. Iterations are striped across the sequence's segments (k6's
// striping: within every block of LCD iterations, each segment takes its
// numerator's worth, spread as evenly as possible), so a part knows, without
// talking to the others, which global iterations are its own and how many of
// N VUs or iterations fall to it. Arrival-rate scenarios re-stripe over the
// segments that hold at least one of their VUs, as k6 does.
import {
  cmp,
  filledSequence as filled,
  parseSegment,
  parseSequence,
  SegmentError,
  segmentText,
  sequenceText,
  type Fraction,
} from './segments.ts';

export { SegmentError };

/** The segment one part runs and the sequence all parts share, in canonical text. */
export interface SegmentChoice {
  segment: string;
  sequence: string;
}

const ONE: Fraction = { n: 1n, d: 1n };
const ZERO: Fraction = { n: 0n, d: 1n };
/** Beyond this the striping table would not be worth building; no real split needs it. */
const MAX_LCD = 1_000_000n;

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));

/**
 * Checks a part's segment against its sequence. Without a sequence, a segment
 * 1/N wide starting at a multiple of 1/N is taken as one of N equal parts
 * (what k6-operator hands its runners); any other segment needs its sequence
 * spelled out, or two parts would stripe their iterations differently.
 */
export function chooseSegment(segment: string, sequence?: string): SegmentChoice {
  const seg = parseSegment(segment);
  let points: Fraction[];
  if (sequence !== undefined) points = filled(parseSequence(sequence));
  else {
    const width = { n: seg.to.n * seg.from.d - seg.from.n * seg.to.d, d: seg.to.d * seg.from.d };
    const g = gcd(width.n, width.d);
    const parts = width.d / g;
    if (width.n / g !== 1n || (seg.from.n * parts) % seg.from.d !== 0n || parts > 1000n) {
      throw new SegmentError(`execution segment ${segment} is not one of N equal parts: give --segment-sequence, the same for every part`);
    }
    points = Array.from({ length: Number(parts) + 1 }, (_, k) => ({ n: BigInt(k), d: parts }));
    points = points.map((p) => ({ n: p.n / gcd(p.n, p.d), d: p.d / gcd(p.n, p.d) }));
  }
  const index = points.findIndex((p, k) => k + 1 < points.length && cmp(p, seg.from) === 0 && cmp(points[k + 1]!, seg.to) === 0);
  if (index < 0) throw new SegmentError(`execution segment ${segment} is not a segment of the sequence ${sequenceText(points)}`);
  return { segment: segmentText(seg), sequence: sequenceText(points) };
}

/** One segment of a sequence with its striping: which global iterations are its own. */
export class ExecutionTuple {
  /** Positions within each block of `lcd` global iterations that belong to this segment, ascending. */
  private readonly positions: number[];
  readonly lcd: number;

  private constructor(
    readonly segments: { from: Fraction; to: Fraction }[],
    readonly index: number,
  ) {
    const lengths = segments
      .map((s) => ({ n: s.to.n * s.from.d - s.from.n * s.to.d, d: s.to.d * s.from.d }))
      .map((f) => ({ n: f.n / gcd(f.n, f.d), d: f.d / gcd(f.n, f.d) }));
    const lcd = lengths.reduce((acc, f) => (acc * f.d) / gcd(acc, f.d), 1n);
    if (lcd > MAX_LCD) throw new SegmentError(`the execution segment sequence's common denominator ${lcd} is too large`);
    this.lcd = Number(lcd);
    const share = lengths.map((f) => Number(f.n * (lcd / f.d)));
    // Biggest segments choose first: they are the hardest to keep from taking neighbours.
    const order = share.map((_, k) => k).sort((a, b) => share[b]! - share[a]! || a - b);
    const taken = order.map(() => 0);
    const mine: number[] = [];
    for (let i = 0; i < this.lcd; i++) {
      for (let s = 0; s < order.length; s++) {
        const num = taken[s]! * this.lcd;
        const den = share[order[s]!]!;
        const due = Math.floor(num / den);
        if (i > due || (i === due && num % den === 0)) {
          taken[s]!++;
          if (order[s] === index) mine.push(i);
          break;
        }
      }
    }
    this.positions = mine;
  }

  /** The whole test, unsplit. */
  static full(): ExecutionTuple {
    return new ExecutionTuple([{ from: ZERO, to: ONE }], 0);
  }

  static of(choice: SegmentChoice | null): ExecutionTuple {
    if (choice === null) return ExecutionTuple.full();
    const points = filled(parseSequence(choice.sequence));
    const seg = parseSegment(choice.segment);
    const segments = points.slice(1).map((to, k) => ({ from: points[k]!, to }));
    const index = segments.findIndex((s) => cmp(s.from, seg.from) === 0 && cmp(s.to, seg.to) === 0);
    if (index < 0) throw new SegmentError(`execution segment ${choice.segment} is not a segment of the sequence ${choice.sequence}`);
    return new ExecutionTuple(segments, index);
  }

  /** How many of `value` VUs or iterations fall to this segment (the parts' shares add up to `value`). */
  scale(value: number): number {
    if (this.segments.length === 1) return value;
    const whole = Math.floor(value / this.lcd) * this.positions.length;
    const rest = value % this.lcd;
    return whole + this.positions.filter((p) => p < rest).length;
  }

  /** The global (whole-test) number of this segment's local iteration `local`, both from 0. */
  globalIndex(local: number): number {
    if (this.segments.length === 1) return local;
    const per = this.positions.length;
    return Math.floor(local / per) * this.lcd + this.positions[local % per]!;
  }

  /**
   * The tuple re-striped over the segments that get at least one of `value`
   * VUs (k6 does this for arrival-rate scenarios, so no iteration goes to a
   * part without a VU to run it); null when this segment gets none.
   */
  restripedFor(value: number): ExecutionTuple | null {
    if (this.segments.length === 1 || value % this.lcd === 0) return this.scale(value) > 0 ? this : null;
    const shares = this.segments.map((_, k) => new ExecutionTuple(this.segments, k).scale(value));
    if (shares[this.index] === 0) return null;
    const kept: { from: Fraction; to: Fraction }[] = [];
    let at = 0n;
    let index = -1;
    shares.forEach((v, k) => {
      if (v === 0) return;
      if (k === this.index) index = kept.length;
      const from = at;
      at += BigInt(v);
      kept.push({ from: reduce(from, BigInt(value)), to: reduce(at, BigInt(value)) });
    });
    return new ExecutionTuple(kept, index);
  }
}

function reduce(n: bigint, d: bigint): Fraction {
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
}
