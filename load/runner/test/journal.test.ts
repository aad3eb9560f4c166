// The journal's account of resolves: an action is refused until a resolve is
// sent for it again, and settled until then too, so the runner reads back
// exactly the actions whose latest resolve may have reserved.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JOURNAL_PREFIX, parseJournal } from '../journal.ts';

const lines = (...facts: object[]) => facts.map((f) => JOURNAL_PREFIX + JSON.stringify(f)).join('\n');

test('a refused resolve is refused until the action is resolved again', () => {
  const j = parseJournal(
    lines(
      { k: 'attempt', action_id: 'a1', tenant: 1 },
      { k: 'refused', action_id: 'a1' },
      { k: 'attempt', action_id: 'a2', tenant: 1 },
      { k: 'refused', action_id: 'a2' },
      { k: 'attempt', action_id: 'a2', tenant: 1 },
    ),
  );
  assert.deepEqual([...j.refused], ['a1'], 'a2 was sent again after its refusal: that resolve may have reserved');
  assert.deepEqual(
    j.attempts.map((a) => a.action_id),
    ['a1', 'a2', 'a2'],
  );
  assert.equal(j.malformed, 0);
});

test('a settled action resolved again is no longer settled', () => {
  const j = parseJournal(
    lines({ k: 'attempt', action_id: 'a1', tenant: 2 }, { k: 'settled', action_id: 'a1' }, { k: 'attempt', action_id: 'a1', tenant: 2 }),
  );
  assert.equal(j.settled.has('a1'), false);
});
