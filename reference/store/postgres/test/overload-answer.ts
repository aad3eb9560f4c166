// The overload answer of [failure-overload], as a rejection check: STORAGE_UNAVAILABLE
// with the pool's retry guidance, for the reason given.
import assert from 'node:assert/strict';
import { RegistryError } from '../../../../contract/registry-error.ts';
import { OVERLOAD_RETRY_AFTER_MS } from '../connection-queue.ts';

export const overload = (why: RegExp) => (err: unknown) => {
  assert.ok(RegistryError.is(err), String(err));
  assert.equal(err.code, 'STORAGE_UNAVAILABLE');
  assert.equal(err.retryAfterMs, OVERLOAD_RETRY_AFTER_MS);
  assert.match(err.message, why);
  return true;
};
