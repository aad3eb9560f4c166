// The reference's choice under [wire-integers] when it refuses integral
// numbers written with a fraction or an exponent: an integer member of the
// contract's records so written is INVALID_REQUEST wherever it stands in the
// text, and nothing else is: not a fraction inside a string (a timestamp's
// seconds), not a member the schemas do not type as an integer, not a name
// that is only the tail of an escaped quote.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RegistryError } from '../../../contract/registry-error.ts';
import { refuseIntegralFractions } from '../integral-fractions.ts';

const refusal = (text: string): string | null => {
  try {
    refuseIntegralFractions(text);
    return null;
  } catch (err) {
    assert.ok(RegistryError.is(err), String(err));
    assert.equal(err.code, 'INVALID_REQUEST');
    return err.message;
  }
};

describe('[wire-integers] integral numbers written with a fraction or an exponent', () => {
  it('refuses an integer member so written, however the number and the space around the colon are written', () => {
    for (const text of [
      '{"capacity":2.0}',
      '{"capacity" :\n 2.0}',
      '{"capacity":\t-0.0}',
      '{"catalog_revision":1e0}',
      '{"catalog_revision":1E+2}',
      '{"catalog_revision":2500e-2}',
      '{"assignment":{"assigned_at":"2026-12-07T19:47:30.224Z","catalog_revision":19.0},"outcome":"completed"}',
      '[{"note":"x"},{"health_revision":3.000}]',
    ])
      assert.match(refusal(text) ?? 'accepted', /must be written as an integer, not /, text);
  });

  it('leaves everything else to the schema', () => {
    for (const text of [
      '{"capacity":2}',
      '{"capacity":2.5}',
      '{"catalog_revision":25.00e-1}',
      '{"assignment":{"assigned_at":"2026-12-07T19:47:30.224Z","catalog_revision":19},"outcome":"completed"}',
      '{"note":"capacity: 2.0"}',
      '{"note":"\\"capacity\\":2.0"}',
      '{"weight":2.0}',
      '',
    ])
      assert.equal(refusal(text), null, text);
  });
});
