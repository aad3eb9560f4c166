// k6's execution-segment arithmetic as the Node runner applies it: the
// striping k6 documents for the sequence 0,1/2,3/4,1, shares that add up to
// the whole for any count, stripes that are disjoint and cover every
// iteration, and the re-striping of an arrival-rate scenario over the parts
// that hold its VUs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseSegment, ExecutionTuple, SegmentError } from '../runner/execution-segments.ts';

const tuples = (sequence: string) => {
  const points = sequence.split(',');
  return points.slice(1).map((to, k) => ExecutionTuple.of({ segment: `${points[k]}:${to}`, sequence }));
};

test('iterations are striped and counts shared out as k6 documents', () => {
  const [a, b, c] = tuples('0,1/2,3/4,1');
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((i) => a!.globalIndex(i)),
    [0, 2, 4, 6, 8, 10],
  );
  assert.deepEqual(
    [0, 1, 2].map((i) => b!.globalIndex(i)),
    [1, 5, 9],
  );
  assert.deepEqual(
    [0, 1, 2].map((i) => c!.globalIndex(i)),
    [3, 7, 11],
  );
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6].map((v) => b!.scale(v)),
    [0, 1, 1, 1, 1, 2],
  );
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6].map((v) => c!.scale(v)),
    [0, 0, 0, 1, 1, 1],
  );
});

test('the parts of any sequence share every count exactly and run every iteration once', () => {
  for (const sequence of ['0,1/2,1', '0,1/3,2/3,1', '0,1/5,1/2,7/10,1', '0,3/5,9/10,1']) {
    const parts = tuples(sequence);
    for (let v = 0; v <= 40; v++)
      assert.equal(
        parts.reduce((n, t) => n + t.scale(v), 0),
        v,
        `${sequence}: ${v}`,
      );
    const seen = parts.flatMap((t) => Array.from({ length: t.scale(60) }, (_, i) => t.globalIndex(i)));
    assert.deepEqual(
      [...seen].sort((x, y) => x - y),
      Array.from({ length: 60 }, (_, i) => i),
      sequence,
    );
  }
});

test('an arrival-rate scenario is striped over the parts that hold its VUs', () => {
  const [a, b] = tuples('0,1/2,1');
  assert.equal(b!.restripedFor(1), null, 'the second half holds no VU of one');
  assert.deepEqual(
    [0, 1, 2].map((i) => a!.restripedFor(1)!.globalIndex(i)),
    [0, 1, 2],
    'the first runs every arrival',
  );
  assert.deepEqual(
    [0, 1].map((i) => b!.restripedFor(4)!.globalIndex(i)),
    [1, 3],
  );
});

test('a segment is one of N equal parts or names its sequence', () => {
  assert.deepEqual(chooseSegment('1/3:2/3'), { segment: '1/3:2/3', sequence: '0,1/3,2/3,1' });
  assert.deepEqual(chooseSegment('50%:100%'), { segment: '1/2:1', sequence: '0,1/2,1' });
  assert.deepEqual(chooseSegment('0:2/3', '0,2/3,1'), { segment: '0:2/3', sequence: '0,2/3,1' });
  assert.throws(() => chooseSegment('0:2/3'), SegmentError);
  assert.throws(() => chooseSegment('1/3:1', '0,1/3,2/3,1'), /not a segment of the sequence/);
});
