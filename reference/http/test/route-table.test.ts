// The route table is openapi.yaml's paths: every operation is reachable at its
// own template, literals win over parameters, and misses are told apart from
// unsupported methods ([wire-unknown-route]).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { operations } from '../../../contract/openapi.ts';
import { HANDLERS } from '../handlers/index.ts';
import { RouteTable } from '../route-table.ts';
import { sampleParams } from './generic.cases.ts';

describe('route table', () => {
  const table = new RouteTable();

  it('[wire-unknown-route] every operation of openapi.yaml is found at its path, with its parameters still encoded', () => {
    for (const entry of operations()) {
      const params = sampleParams(entry);
      const path = entry.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => params[name]!);
      const match = table.match(entry.method.toUpperCase(), path);
      assert.equal(match.kind, 'found', `${entry.method} ${path}`);
      if (match.kind === 'found') {
        assert.equal(match.entry.operation.operationId, entry.operation.operationId);
        assert.deepEqual(match.rawParams, params);
      }
    }
    const encoded = table.match('GET', '/v1/routes/a%3Ab');
    assert.deepEqual(encoded.kind === 'found' && encoded.rawParams, { action_id: 'a%3Ab' });
  });

  it('[wire-unknown-route] a handler exists for exactly the operations of openapi.yaml', () => {
    assert.deepEqual(
      Object.keys(HANDLERS).sort(),
      operations()
        .map((e) => e.operation.operationId)
        .sort(),
    );
  });

  it('[wire-unknown-route] literal segments win over parameters of the same length', () => {
    const match = table.match('GET', '/v1/fleet/status');
    assert.equal(match.kind === 'found' && match.entry.operation.operationId, 'getFleetStatus');
  });

  it('[wire-unknown-route] misses, empty segments and unsupported methods', () => {
    for (const path of ['', 'v1/catalog', '/v1/catalog/', '/v1//catalog', '/v1/routes//settlement', '/health/']) {
      assert.equal(table.match('GET', path).kind, 'no-route', JSON.stringify(path));
    }
    assert.deepEqual(table.match('PATCH', '/v1/instances/cinst_a'), { kind: 'method-not-allowed', allow: 'GET, PUT' });
  });
});
