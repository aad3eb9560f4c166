// k6 execution segments ("0:1/3", "1/3:2/3", "50%:100%", "0.5:1", or "1/2"
// for "0:1/2") and sequences ("0,1/3,2/3,1") as exact fractions, to tell
// whether the parts of a distributed run overlap, belong to one split and
// cover the whole test.
import { FleetproofError } from '../../client/errors.ts';

export interface Fraction {
  n: bigint;
  d: bigint;
}

export interface Segment {
  text: string;
  from: Fraction;
  to: Fraction;
}

export class SegmentError extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_SEGMENT', message, options);
  }
}

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));
const norm = (n: bigint, d: bigint): Fraction => {
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
};
export const cmp = (a: Fraction, b: Fraction): number => {
  const x = a.n * b.d;
  const y = b.n * a.d;
  return x < y ? -1 : x > y ? 1 : 0;
};
const sub = (a: Fraction, b: Fraction): Fraction => norm(a.n * b.d - b.n * a.d, a.d * b.d);
const add = (a: Fraction, b: Fraction): Fraction => norm(a.n * b.d + b.n * a.d, a.d * b.d);
export const fractionText = (f: Fraction): string => (f.d === 1n ? String(f.n) : `${f.n}/${f.d}`);

export function parseFraction(text: string): Fraction {
  const t = text.trim();
  let m = /^([0-9]+)\/([0-9]+)$/.exec(t);
  if (m) {
    if (BigInt(m[2]!) === 0n) throw new SegmentError(`${text}: division by zero`);
    return norm(BigInt(m[1]!), BigInt(m[2]!));
  }
  m = /^([0-9]+)(?:\.([0-9]+))?(%?)$/.exec(t);
  if (!m) throw new SegmentError(`${JSON.stringify(text)} is not a fraction, decimal or percentage`);
  const decimals = m[2] ?? '';
  let f = norm(BigInt(m[1]! + decimals), 10n ** BigInt(decimals.length));
  if (m[3]) f = norm(f.n, f.d * 100n);
  return f;
}

export function parseSegment(text: string): Segment {
  const parts = text.split(':');
  if (parts.length > 2) throw new SegmentError(`execution segment ${JSON.stringify(text)} has more than one colon`);
  const from = parts.length === 2 ? parseFraction(parts[0]!) : { n: 0n, d: 1n };
  const to = parseFraction(parts[parts.length - 1]!);
  if (cmp(from, to) >= 0 || cmp(to, { n: 1n, d: 1n }) > 0)
    throw new SegmentError(`execution segment ${JSON.stringify(text)} is not a range within 0:1`);
  return { text, from, to };
}

/** Pairs of segments that share some part of the test. */
export function overlaps(segments: Segment[]): [Segment, Segment][] {
  const out: [Segment, Segment][] = [];
  for (let i = 0; i < segments.length; i++) {
    for (let j = i + 1; j < segments.length; j++) {
      const a = segments[i]!;
      const b = segments[j]!;
      if (cmp(a.from, b.to) < 0 && cmp(b.from, a.to) < 0) out.push([a, b]);
    }
  }
  return out;
}

/** The share of the test the (non-overlapping) segments cover. */
export function coverage(segments: Segment[]): Fraction {
  return segments.reduce((s, x) => add(s, sub(x.to, x.from)), { n: 0n, d: 1n } as Fraction);
}

/** The single segment the (non-overlapping) segments make up, or null when they leave a gap. */
export function union(segments: Segment[]): string | null {
  const sorted = [...segments].sort((a, b) => cmp(a.from, b.from));
  for (let i = 1; i < sorted.length; i++) if (cmp(sorted[i - 1]!.to, sorted[i]!.from) !== 0) return null;
  return sorted.length === 0 ? null : `${fractionText(sorted[0]!.from)}:${fractionText(sorted[sorted.length - 1]!.to)}`;
}

/** The points of a sequence ("0,1/3,2/3,1"), strictly increasing within 0..1. */
export function parseSequence(text: string): Fraction[] {
  const points = text.split(',').map((p) => parseFraction(p));
  if (points.length < 2) throw new SegmentError(`execution segment sequence ${JSON.stringify(text)} needs at least two points`);
  for (let i = 1; i < points.length; i++) {
    if (cmp(points[i - 1]!, points[i]!) >= 0)
      throw new SegmentError(`execution segment sequence ${JSON.stringify(text)} is not increasing`);
  }
  if (cmp(points[points.length - 1]!, { n: 1n, d: 1n }) > 0)
    throw new SegmentError(`execution segment sequence ${JSON.stringify(text)} goes past 1`);
  return points;
}

/** The sequence filled out to 0..1, as k6 fills it. */
export function filledSequence(points: Fraction[]): Fraction[] {
  const out = [...points];
  if (cmp(out[0]!, { n: 0n, d: 1n }) !== 0) out.unshift({ n: 0n, d: 1n });
  if (cmp(out[out.length - 1]!, { n: 1n, d: 1n }) !== 0) out.push({ n: 1n, d: 1n });
  return out;
}

export const sequenceText = (points: Fraction[]): string => points.map(fractionText).join(',');
export const segmentText = (s: { from: Fraction; to: Fraction }): string => `${fractionText(s.from)}:${fractionText(s.to)}`;

export interface PartSegment {
  dir: string;
  segment: Segment;
  /** The sequence the part was split by, when it says. */
  sequence: string | null;
}

/**
 * Why the parts' segments are not one split of the test, or null: parts
 * split by different sequences, a segment foreign to the run's sequence,
 * two segments sharing work, or (when `complete`) a share nobody ran.
 */
export function segmentProblem(parts: PartSegment[], complete: boolean): string | null {
  const withSequence = parts.filter((p) => p.sequence !== null).map((p) => ({ ...p, points: filledSequence(parseSequence(p.sequence!)) }));
  const sequence = withSequence[0];
  const other = withSequence.find((p) => sequenceText(p.points) !== sequenceText(sequence!.points));
  if (sequence && other)
    return `${other.dir} was split by the sequence ${sequenceText(other.points)}, ${sequence.dir} by ${sequenceText(sequence.points)}: foreign segments of another split`;
  if (sequence) {
    const points = sequence.points;
    const inSequence = (s: Segment) =>
      points.some((p, k) => k + 1 < points.length && cmp(p, s.from) === 0 && cmp(points[k + 1]!, s.to) === 0);
    const foreign = parts.find((p) => !inSequence(p.segment));
    if (foreign)
      return `${foreign.dir} ran segment ${foreign.segment.text}, which is not a segment of the run's sequence ${sequenceText(points)}: a foreign segment`;
  }
  const clash = overlaps(parts.map((p) => p.segment))[0];
  if (clash) {
    const dirOf = (s: Segment) => parts.find((p) => p.segment === s)!.dir;
    return `execution segments ${clash[0].text} (${dirOf(clash[0])}) and ${clash[1].text} (${dirOf(clash[1])}) overlap: the same share of the test would count twice`;
  }
  if (!complete) return null;
  const missing = gaps(parts.map((p) => p.segment));
  if (missing.length > 0) {
    return `the parts (segments ${parts.map((p) => p.segment.text).join(', ')}) leave ${missing.join(', ')} of the test out: a part is missing`;
  }
  return null;
}

/** The shares of 0:1 that no (non-overlapping) segment covers, as segments. */
function gaps(segments: Segment[]): string[] {
  const sorted = [...segments].sort((a, b) => cmp(a.from, b.from));
  const out: string[] = [];
  let at: Fraction = { n: 0n, d: 1n };
  for (const s of sorted) {
    if (cmp(at, s.from) < 0) out.push(segmentText({ from: at, to: s.from }));
    at = s.to;
  }
  if (cmp(at, { n: 1n, d: 1n }) < 0) out.push(segmentText({ from: at, to: { n: 1n, d: 1n } }));
  return out;
}
