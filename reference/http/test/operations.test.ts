// Every operation of openapi.yaml over a real server: its success and every
// status it documents. The last check fails when a documented status was never
// produced, unless it is listed below as out of reach of a healthy memory store.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operations } from '../../../contract/openapi.ts';
import { administrationCases } from './administration.cases.ts';
import { authorityCases } from './authority.cases.ts';
import { genericCases } from './generic.cases.ts';
import { routingCases } from './routing.cases.ts';
import { TestRegistry } from './support.ts';

/** Documented statuses no request can provoke from a healthy memory store, and why. */
const UNREACHABLE: Record<string, string> = {
  '503': 'STORAGE_UNAVAILABLE needs a failing store (covered in server.test.ts); only resolveRoute has REPLICA_UNAVAILABLE',
  'resolveRoute 404': 'the memory store reports every routing refusal with a more specific code',
  // Decision 28 lets a malformed path parameter be NOT_FOUND; the reference answers INVALID_REQUEST (its variants may not).
  'putConnectorType 404': 'only a malformed type id, which the reference answers INVALID_REQUEST',
  'putAdmissionPolicy 404': 'only a malformed policy ref, which the reference answers INVALID_REQUEST',
  'getAdmissionCounter 404': 'only a malformed scope key, which the reference answers INVALID_REQUEST',
};

function unreachable(operationId: string, status: string): boolean {
  if (UNREACHABLE[`${operationId} ${status}`]) return true;
  return status === '503' && operationId !== 'resolveRoute' && operationId !== 'getReady';
}

describe('HTTP binding: every operation', () => {
  let api: TestRegistry;
  before(async () => {
    api = await TestRegistry.start({ maxBodyBytes: 64 * 1024 });
  });
  after(() => api.close());
  const registry = () => api;

  describe('shared refusals', () => genericCases(registry));
  describe('authority', () => authorityCases(registry));
  describe('administration, lifecycle and reads', () => administrationCases(registry));
  describe('catalog, routing, fleet and operations', () => routingCases(registry));

  it('[error-catalogue-only] every status each operation documents was produced', () => {
    const missing: string[] = [];
    for (const entry of operations()) {
      const id = entry.operation.operationId;
      for (const status of Object.keys(entry.operation.responses)) {
        if (status === '503' && id === 'getReady') continue; // needs a store that is not ready: server.test.ts
        if (!TestRegistry.observed.has(`${id} ${status}`) && !unreachable(id, status)) missing.push(`${id} ${status}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});
