// Refusals every operation shares, driven from openapi.yaml's operation list
// so a new operation is covered the day it is added: no token, a missing
// role, a malformed path parameter, a body of the wrong media type, too large,
// not JSON, or not of its schema.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { operations, type OperationEntry } from '../../../contract/openapi.ts';
import { ALL_ROLES, expectError, type TestRegistry } from './support.ts';

/** A well-formed value for every path parameter of the contract. */
export const SAMPLE_PARAMS: Record<string, string> = {
  type_id: 'ctype_sample',
  version_id: 'cver_sample',
  instance_id: 'cinst_sample',
  replica_id: 'crepl_sample',
  tenant_id: 'tenant-sample',
  capability_id: 'cap.sample',
  policy_ref: 'policy-sample',
  kind: 'tenant',
  key: 'tenant-sample',
  action_id: 'action-sample',
};

export const protectedOps = () => operations().filter((e) => e.roles !== null);
const withBody = () => operations().filter((e) => e.operation.requestBody !== undefined);
const withPathParams = () => operations().filter((e) => e.parameters.some((p) => p.in === 'path'));

export function sampleParams(entry: OperationEntry): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of entry.parameters) if (p.in === 'path') out[p.name] = SAMPLE_PARAMS[p.name]!;
  return out;
}

/** A token that can pass every role check, with a tenant so routing operations accept it too. */
export const everything = (api: TestRegistry) => api.token(ALL_ROLES, 'tenant-sample');

export function genericCases(registry: () => TestRegistry): void {
  it('[auth-bearer] every protected operation refuses a request without a token', async () => {
    const api = registry();
    for (const entry of protectedOps()) {
      const res = await api.call(entry.operation.operationId, {
        params: sampleParams(entry),
        token: null,
        body: entry.operation.requestBody ? {} : undefined,
      });
      expectError(res, 401, 'UNAUTHENTICATED');
    }
  });

  it('[auth-roles] every operation that names a role refuses a token holding every other role', async () => {
    const api = registry();
    const named = protectedOps().filter((e) => e.roles!.length > 0);
    assert.ok(named.length >= 20, 'openapi.yaml names roles on the protected operations');
    for (const entry of named) {
      const others = ALL_ROLES.filter((r) => !entry.roles!.includes(r));
      const token = await api.token(others, 'tenant-sample');
      const res = await api.call(entry.operation.operationId, {
        params: sampleParams(entry),
        token,
        body: entry.operation.requestBody ? {} : undefined,
      });
      expectError(res, 403, 'FORBIDDEN');
    }
  });

  it('[wire-closed-records] every path parameter is checked against its schema', async () => {
    const api = registry();
    const token = await everything(api);
    for (const entry of withPathParams()) {
      for (const p of entry.parameters.filter((q) => q.in === 'path')) {
        const params = { ...sampleParams(entry), [p.name]: '-not a valid id-' };
        const res = await api.call(entry.operation.operationId, { params, token, body: entry.operation.requestBody ? {} : undefined });
        expectError(res, 400, 'INVALID_REQUEST');
        assert.equal(res.body.error.details.in, 'path', `${entry.operation.operationId} ${p.name}`);
      }
    }
  });

  it('[wire-closed-records] every request body is checked against its schema', async () => {
    const api = registry();
    const token = await everything(api);
    for (const entry of withBody()) {
      for (const body of [{ unknown_field: true }, [], 'text', 42, null]) {
        const res = await api.call(entry.operation.operationId, { params: sampleParams(entry), token, body: JSON.stringify(body) });
        expectError(res, 400, 'INVALID_REQUEST');
        assert.equal(res.body.error.details.in, 'body', `${entry.operation.operationId} ${JSON.stringify(body)}`);
      }
    }
  });

  it('[wire-json] every request body must be application/json', async () => {
    const api = registry();
    const token = await everything(api);
    for (const entry of withBody()) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/jsonx']) {
        const res = await api.call(entry.operation.operationId, {
          params: sampleParams(entry),
          token,
          body: '{}',
          headers: { 'content-type': type },
        });
        expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      }
      const charset = await api.call(entry.operation.operationId, {
        params: sampleParams(entry),
        token,
        body: '{}',
        headers: { 'content-type': 'Application/JSON; charset=UTF-8' },
      });
      expectError(charset, 400, 'INVALID_REQUEST');
    }
  });

  it('[wire-malformed-json] every request body must be well-formed UTF-8 JSON', async () => {
    const api = registry();
    const token = await everything(api);
    for (const entry of withBody()) {
      const invalidUtf8 = Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]);
      for (const body of ['{', '{"a":1}}', "{'a':1}", '', invalidUtf8]) {
        const res = await api.call(entry.operation.operationId, { params: sampleParams(entry), token, body });
        expectError(res, 400, 'INVALID_REQUEST');
      }
    }
  });

  it('[wire-body-limit] every request body above max_body_bytes is refused with 413', async () => {
    const api = registry();
    const token = await everything(api);
    const max = (await api.call('getVersionInfo', { token: null })).body.limits.max_body_bytes as number;
    for (const entry of withBody()) {
      const body = JSON.stringify({ padding: 'x'.repeat(max) });
      const res = await api.call(entry.operation.operationId, { params: sampleParams(entry), token, body });
      expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    }
  });
}
