// The lifecycle operations over the HTTP binding (openapi.yaml): PUT
// /v1/replicas/{id}, POST /v1/replicas/{id}/health and GET /v1/replicas/{id},
// sent over the contract's transport with a bearer token holding
// registry:lifecycle and registry:reader. An error answer becomes a
// RegistryError with the answer's catalogue code; a transport failure or an
// unexpected answer is an ordinary Error.
import type { Dispatcher } from 'undici';
import { isErrorCode } from '../../contract/errors.ts';
import type { OperationId } from '../../contract/operations.ts';
import type { ConnectorReplica, HealthReport, ReplicaProvision, WriteResult } from '../../contract/records.ts';
import { bearerCredentials, type Credentials } from '../../client/credentials.ts';
import { HttpTransport, jsonBody, type OperationRequest } from '../../client/http-transport.ts';
import { RegistryError } from '../../contract/registry-error.ts';
import type { LifecyclePort } from './lifecycle-port.ts';
import { BRIDGE_ROLES } from './registry-token.ts';

export interface HttpLifecycleOptions {
  /** The registry's base URL, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** A current token with registry:lifecycle and registry:reader. */
  token(): Promise<string>;
  /** Credentials of the operator's own (a token command, static headers), used instead of `token`. */
  credentials?: Credentials;
  /** Per-request limit on waiting for the answer. */
  timeoutMs?: number;
  dispatcher?: Dispatcher;
}

export class HttpLifecyclePort implements LifecyclePort {
  readonly #transport: HttpTransport;

  constructor(options: HttpLifecycleOptions) {
    this.#transport = new HttpTransport({
      baseUrl: options.baseUrl,
      credentials: options.credentials ?? bearerCredentials(() => options.token()),
      timeoutMs: options.timeoutMs ?? 10_000,
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    });
  }

  async provisionReplica(record: ReplicaProvision): Promise<WriteResult<ConnectorReplica>> {
    return (await this.#call('provisionReplica', { params: { replica_id: record.id }, body: record })) as WriteResult<ConnectorReplica>;
  }

  async reportHealth(id: string, report: HealthReport): Promise<WriteResult<ConnectorReplica>> {
    return (await this.#call('reportHealth', { params: { replica_id: id }, body: report })) as WriteResult<ConnectorReplica>;
  }

  async getReplica(id: string): Promise<ConnectorReplica | null> {
    try {
      return (await this.#call('getReplica', { params: { replica_id: id } })) as ConnectorReplica;
    } catch (err) {
      if (RegistryError.is(err) && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  }

  close(): Promise<void> {
    return this.#transport.close();
  }

  async #call<K extends OperationId>(op: K, req: OperationRequest<K>): Promise<unknown> {
    const received = await this.#transport.operation(op, { ...req, as: { roles: BRIDGE_ROLES } });
    const what = `${received.exchange.request.method} ${received.exchange.request.url.slice(this.#transport.baseUrl.length)}`;
    let json: unknown;
    try {
      json = jsonBody(received);
    } catch {
      throw new Error(`${what}: answer ${received.status} is not JSON`);
    }
    if (received.status === 200) return json;
    const error = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    if (isErrorCode(error?.code)) throw new RegistryError(error.code, typeof error.message === 'string' ? error.message : error.code);
    throw new Error(`${what}: unexpected answer ${received.status}`);
  }
}
