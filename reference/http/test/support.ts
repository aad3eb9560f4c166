// What the HTTP tests share: a real server on port 0 over a memory store with
// a manual clock, a signing key to mint any token, and a client that calls
// operations by operationId and checks every response against openapi.yaml —
// a documented status, the schema of that status, an x-request-id header.
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import type { ValidateFunction } from 'ajv';
import type { JSONWebKeySet } from 'jose';
import { openApiDocument, operations, type OperationEntry } from '../../../contract/openapi.ts';
import { compileSchema, describeViolation } from '../../../contract/schemas.ts';
import { generateSigningKeys, signingKeyFromJwk, type SigningKey } from '../../../contract/tokens.ts';
import { mintToken, type MintOptions } from '../../../client/token-minter.ts';
import { assembledServer, assembledStore, PLAIN_ASSEMBLY, type ReferenceAssembly } from '../../assembly.ts';
import { ManualClock } from '../../domain/time.ts';
import { b, HOUR, T0 } from '../../store/test/behaviour/world.ts';
import { MemoryStore } from '../../store/memory/memory-store.ts';
import type { RegistryStore } from '../../store/registry-store.ts';
import type { RegistryServer } from '../server.ts';
import type { ConnectionLimits } from '../connection-limits.ts';

export { b, HOUR, T0 };

export const ALL_ROLES = [
  'registry:admin',
  'registry:lifecycle',
  'registry:reader',
  'registry:dispatch',
  'registry:operator',
  'registry:internal',
];

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
}

export interface CallOptions {
  params?: Record<string, string>;
  /** Path parameters sent exactly as given, without percent-encoding. */
  encodedParams?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  /** A string or Buffer is sent as it is; anything else as JSON. */
  body?: unknown;
  /** A token string, or null for no Authorization header; defaults to an all-roles token without tenant. */
  token?: string | null;
  headers?: Record<string, string>;
}

const entries = new Map(operations().map((e) => [e.operation.operationId, e]));
const responseValidators = new Map<string, ValidateFunction | null>();

export function operationEntry(operationId: string): OperationEntry {
  const entry = entries.get(operationId);
  if (!entry) throw new Error(`openapi.yaml has no operation ${operationId}`);
  return entry;
}

/** The schema openapi.yaml gives a status of an operation; null for non-JSON bodies. */
function responseValidator(entry: OperationEntry, status: number): ValidateFunction | null {
  const key = `${entry.operation.operationId} ${status}`;
  if (responseValidators.has(key)) return responseValidators.get(key)!;
  let response = entry.operation.responses[String(status)] as { $ref?: string; content?: Record<string, { schema: unknown }> } | undefined;
  assert.ok(response, `${entry.operation.operationId} answered ${status}, which openapi.yaml does not document`);
  if (response.$ref)
    response = openApiDocument().components.responses[response.$ref.replace('#/components/responses/', '')] as typeof response;
  const schema = response?.content?.['application/json']?.schema;
  const validate = schema === undefined ? null : compileSchema(schema);
  responseValidators.set(key, validate);
  return validate;
}

const errorBodyValidator = compileSchema({ $ref: '#/components/schemas/ErrorBody' });

export function assertConforms(validate: ValidateFunction, body: unknown, what: string): void {
  if (!validate(body)) assert.fail(`${what}: ${describeViolation(validate.errors).message}\n${JSON.stringify(body).slice(0, 2000)}`);
}

export interface TestRegistryOptions {
  /** Decorators around the store and the server (a deliberate defect's). */
  assembly?: ReferenceAssembly;
  maxBodyBytes?: number;
  log?: (message: string, err: unknown) => void;
  /** Puts something between the server and the memory store, e.g. a failing store. */
  wrapStore?: (store: MemoryStore) => RegistryStore;
  connections?: Partial<ConnectionLimits>;
}

export class TestRegistry {
  readonly clock = new ManualClock(T0);
  readonly store: MemoryStore;
  readonly server: RegistryServer;
  /** Keep-alive connections so tests exercise connection reuse, as real clients do. */
  readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 16 });
  url = '';
  private tokens = new Map<string, string>();
  /** `operationId status` of every response `call` saw, for documented-status coverage. */
  static readonly observed = new Set<string>();

  private constructor(
    readonly key: SigningKey,
    readonly jwks: JSONWebKeySet,
    options: TestRegistryOptions,
  ) {
    const assembly = options.assembly ?? PLAIN_ASSEMBLY;
    this.store = new MemoryStore({ clock: this.clock.now, ...(assembly.raceHooks ? { raceHooks: assembly.raceHooks } : {}) });
    const limits = options.maxBodyBytes === undefined ? {} : { max_body_bytes: options.maxBodyBytes };
    const served = assembledStore(assembly, options.wrapStore ? options.wrapStore(this.store) : this.store);
    this.server = assembledServer(
      assembly,
      { store: served, jwks: this.jwks, limits, log: options.log, connections: options.connections },
      { signingKey: key },
    );
  }

  static async start(options: TestRegistryOptions = {}): Promise<TestRegistry> {
    const { privateJwk, jwks } = await generateSigningKeys();
    const registry = new TestRegistry(await signingKeyFromJwk(privateJwk), jwks, options);
    registry.url = await registry.server.listen(0, '127.0.0.1');
    return registry;
  }

  async close(): Promise<void> {
    await this.agent.close();
    await this.server.close();
    await this.store.close();
  }

  /** A token for these roles and tenant, minted once per test registry. */
  async token(roles: string[], tenant?: string, extra: Partial<MintOptions> = {}): Promise<string> {
    const cacheKey = JSON.stringify([roles, tenant ?? null, extra.audience ?? null, extra.ttlSeconds ?? null, extra.now ?? null]);
    let token = this.tokens.get(cacheKey);
    if (!token) {
      token = await mintToken({ key: this.key, roles, ...(tenant !== undefined ? { tenant } : {}), ...extra });
      this.tokens.set(cacheKey, token);
    }
    return token;
  }

  private async exchange(
    method: string,
    path: string,
    init: { body?: string | Buffer; headers?: Record<string, string> },
  ): Promise<Response> {
    const res = await request(this.url + path, { method: method as 'GET', body: init.body, headers: init.headers, dispatcher: this.agent });
    const text = await res.body.text();
    const headers = res.headers as Response['headers'];
    assert.ok(headers['x-request-id'], `${method} ${path}: no x-request-id header`);
    const json = (headers['content-type'] ?? '').toString().startsWith('application/json') && text !== '' ? JSON.parse(text) : undefined;
    return { status: res.statusCode, headers, body: json, text };
  }

  /** Any request at all; an error answer must have the error body of the contract. */
  async raw(method: string, path: string, init: { body?: string | Buffer; headers?: Record<string, string> } = {}): Promise<Response> {
    const res = await this.exchange(method, path, init);
    if (res.status >= 400) assertConforms(errorBodyValidator, res.body, `${method} ${path} error body`);
    return res;
  }

  /** Calls an operation by its operationId and validates the response against openapi.yaml. */
  async call(operationId: string, options: CallOptions = {}): Promise<Response> {
    const entry = operationEntry(operationId);
    let path = entry.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
      const encoded = options.encodedParams?.[name];
      if (encoded !== undefined) return encoded;
      const value = options.params?.[name];
      if (value === undefined) throw new Error(`${operationId}: path parameter ${name} missing`);
      return encodeURIComponent(value);
    });
    if (options.query)
      path += '?' + new URLSearchParams(Object.entries(options.query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? await this.token(ALL_ROLES) : options.token;
    if (token !== null) headers['authorization'] ??= `Bearer ${token}`;
    let body: string | Buffer | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' || Buffer.isBuffer(options.body) ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await this.exchange(entry.method.toUpperCase(), path, { body, headers });
    TestRegistry.observed.add(`${operationId} ${res.status}`);
    const validate = responseValidator(entry, res.status);
    if (validate) assertConforms(validate, res.body, `${operationId} ${res.status} response`);
    return res;
  }
}

export function expectError(res: Response, status: number, code: string): void {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status}: ${res.text.slice(0, 500)}`);
  assert.equal(res.body?.error?.code, code, `expected ${code}, got ${res.text.slice(0, 500)}`);
}

export function expectOk(res: Response): any {
  assert.equal(res.status, 200, `expected 200, got ${res.status}: ${res.text.slice(0, 500)}`);
  return res.body;
}

export interface SeededFleet {
  typeId: string;
  versionId: string;
  instanceId: string;
  replicaIds: string[];
  capabilityId: string;
  tenantId: string;
}

/** Puts one routable fleet over HTTP, one operation per record. */
export async function seedFleet(
  api: TestRegistry,
  name: string,
  options: { tenantId?: string; replicas?: number; capacity?: number; quotaPolicyRef?: string | null } = {},
): Promise<SeededFleet> {
  const tenantId = options.tenantId ?? 'tenant-a';
  const capabilityId = `cap.${name}.run`;
  const typeId = `ctype_${name}`;
  const type = b.connectorType(typeId);
  expectOk(await api.call('putConnectorType', { params: { type_id: typeId }, body: type }));
  const version = b.version(`cver_${name}`, typeId, [b.capability(capabilityId)]);
  expectOk(await api.call('admitVersion', { params: { version_id: version.id }, body: version }));
  const instance = b.instance(`cinst_${name}`, typeId, version.id, tenantId);
  expectOk(await api.call('putInstance', { params: { instance_id: instance.id }, body: instance }));
  const replicaIds: string[] = [];
  for (let i = 1; i <= (options.replicas ?? 1); i++) {
    const replica = b.replica(`crepl_${name}_${i}`, instance.id, version.id, api.clock.now() + HOUR, { capacity: options.capacity ?? 10 });
    expectOk(await api.call('provisionReplica', { params: { replica_id: replica.id }, body: replica }));
    replicaIds.push(replica.id);
  }
  const binding = b.binding(tenantId, capabilityId, instance.id, { quota_policy_ref: options.quotaPolicyRef ?? null });
  expectOk(
    await api.call('putBinding', { params: { tenant_id: tenantId, capability_id: capabilityId, instance_id: instance.id }, body: binding }),
  );
  return { typeId, versionId: version.id, instanceId: instance.id, replicaIds, capabilityId, tenantId };
}
