// A fake Kubernetes API server over real HTTP on loopback, for the provider's
// and the bridge's end-to-end tests. It keeps Services and EndpointSlices
// with one resourceVersion counter (as etcd does), serves list and chunked
// watch responses, and lets a test inject what a real cluster does: status
// events, expiry (410), dropped streams, failing requests, re-created objects.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Resource = 'services' | 'endpointslices';
type JsonObject = Record<string, unknown>;

interface HistoryEntry {
  rv: number;
  resource: Resource;
  namespace: string;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: JsonObject;
}

interface Watcher {
  resource: Resource;
  namespace: string;
  matches(object: JsonObject): boolean;
  response: ServerResponse;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
}

const ROUTE = /^\/(?:api\/v1|apis\/discovery\.k8s\.io\/v1)\/namespaces\/([a-z0-9-]+)\/(services|endpointslices)$/;

function metaOf(object: JsonObject): JsonObject {
  return (object['metadata'] ?? {}) as JsonObject;
}

function statusBody(code: number, reason: string): JsonObject {
  return { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: `fake apiserver: ${reason}`, reason, code };
}

export class FakeKubeApiServer {
  readonly requests: RecordedRequest[] = [];
  readonly #server: Server;
  readonly #objects = new Map<string, { resource: Resource; namespace: string; object: JsonObject }>();
  readonly #history: HistoryEntry[] = [];
  readonly #watchers = new Set<Watcher>();
  readonly #failures: Array<{ status: number; match: (r: RecordedRequest) => boolean; headers: Record<string, string> }> = [];
  #rv = 100;
  #compactedThrough = 0;
  #token: string | undefined;
  origin = '';

  private constructor(token: string | undefined) {
    this.#token = token;
    this.#server = createServer((req, res) => this.#handle(req, res));
  }

  /** Starts on 127.0.0.1 with an ephemeral port. */
  static async start(options: { token?: string } = {}): Promise<FakeKubeApiServer> {
    const server = new FakeKubeApiServer(options.token);
    await new Promise<void>((resolve) => server.#server.listen(0, '127.0.0.1', resolve));
    server.origin = `http://127.0.0.1:${(server.#server.address() as AddressInfo).port}`;
    return server;
  }

  get resourceVersion(): string {
    return String(this.#rv);
  }

  get openWatches(): number {
    return this.#watchers.size;
  }

  /** Creates or replaces a Service (ADDED or MODIFIED); returns its new resourceVersion. */
  putService(object: JsonObject): string {
    return this.#put('services', object);
  }

  putSlice(object: JsonObject): string {
    return this.#put('endpointslices', object);
  }

  deleteService(namespace: string, name: string): void {
    this.#delete('services', namespace, name);
  }

  deleteSlice(namespace: string, name: string): void {
    this.#delete('endpointslices', namespace, name);
  }

  /** The next request matching `match` (default: any) answers `status` instead. */
  failNext(status: number, match: (r: RecordedRequest) => boolean = () => true, headers: Record<string, string> = {}): void {
    this.#failures.push({ status, match, headers });
  }

  /** Sends an ERROR event with `code` on every open watch. */
  sendStatus(code: number): void {
    for (const w of this.#watchers) this.#write(w, { type: 'ERROR', object: statusBody(code, code === 410 ? 'Expired' : 'InternalError') });
  }

  /** Forgets history: a watch from any older resourceVersion is now 410 Gone. */
  compact(): void {
    this.#compactedThrough = this.#rv;
  }

  /** Ends every open watch response, as the server's watch timeout does. */
  endWatches(): void {
    for (const w of this.#watchers) w.response.end();
    this.#watchers.clear();
  }

  async close(): Promise<void> {
    this.endWatches();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #key(resource: Resource, namespace: string, name: string): string {
    return `${resource}/${namespace}/${name}`;
  }

  #put(resource: Resource, input: JsonObject): string {
    const meta = metaOf(input);
    const namespace = String(meta['namespace']);
    const key = this.#key(resource, namespace, String(meta['name']));
    const existed = this.#objects.get(key);
    // A different UID under the same name is a new object, as after delete and re-create.
    const type = existed && metaOf(existed.object)['uid'] === meta['uid'] ? 'MODIFIED' : 'ADDED';
    const object = { ...structuredClone(input), metadata: { ...structuredClone(meta), resourceVersion: String(++this.#rv) } };
    this.#objects.set(key, { resource, namespace, object });
    this.#record({ rv: this.#rv, resource, namespace, type, object });
    return String(this.#rv);
  }

  #delete(resource: Resource, namespace: string, name: string): void {
    const key = this.#key(resource, namespace, name);
    const existed = this.#objects.get(key);
    if (!existed) throw new Error(`no ${key}`);
    this.#objects.delete(key);
    const object = { ...existed.object, metadata: { ...metaOf(existed.object), resourceVersion: String(++this.#rv) } };
    this.#record({ rv: this.#rv, resource, namespace, type: 'DELETED', object });
  }

  #record(entry: HistoryEntry): void {
    this.#history.push(entry);
    for (const w of this.#watchers) {
      if (w.resource === entry.resource && w.namespace === entry.namespace && w.matches(entry.object))
        this.#write(w, { type: entry.type, object: entry.object });
    }
  }

  #write(w: Watcher, event: JsonObject): void {
    w.response.write(`${JSON.stringify(event)}\n`);
  }

  #matcher(query: Record<string, string>): (object: JsonObject) => boolean {
    const field = query['fieldSelector'];
    const name = field?.startsWith('metadata.name=') ? field.slice('metadata.name='.length) : undefined;
    const labels = (query['labelSelector'] ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => pair.split('=') as [string, string]);
    return (object) => {
      const meta = metaOf(object);
      const own = (meta['labels'] ?? {}) as Record<string, string>;
      return (name === undefined || meta['name'] === name) && labels.every(([k, v]) => own[k] === v);
    };
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
    };
    this.requests.push(recorded);
    const reply = (status: number, body: JsonObject, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    };
    if (this.#token !== undefined && recorded.authorization !== `Bearer ${this.#token}`) return reply(401, statusBody(401, 'Unauthorized'));
    const failure = this.#failures.findIndex((f) => f.match(recorded));
    if (failure !== -1) {
      const { status, headers } = this.#failures.splice(failure, 1)[0]!;
      return reply(status, statusBody(status, 'Injected'), headers);
    }
    const route = ROUTE.exec(url.pathname);
    if (req.method !== 'GET' || !route) return reply(404, statusBody(404, 'NotFound'));
    const namespace = route[1]!;
    const resource = route[2] as Resource;
    const matches = this.#matcher(recorded.query);
    if (recorded.query['watch'] !== 'true') {
      const items = [...this.#objects.values()]
        .filter((o) => o.resource === resource && o.namespace === namespace && matches(o.object))
        .map((o) => o.object);
      return reply(200, {
        kind: resource === 'services' ? 'ServiceList' : 'EndpointSliceList',
        apiVersion: 'v1',
        metadata: { resourceVersion: String(this.#rv) },
        items,
      });
    }
    const from = Number(recorded.query['resourceVersion']);
    if (!Number.isInteger(from) || from < this.#compactedThrough) return reply(410, statusBody(410, 'Expired'));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    const watcher: Watcher = { resource, namespace, matches, response: res };
    for (const e of this.#history)
      if (e.rv > from && e.resource === resource && e.namespace === namespace && matches(e.object))
        this.#write(watcher, { type: e.type, object: e.object });
    this.#watchers.add(watcher);
    const forget = () => this.#watchers.delete(watcher);
    res.on('close', forget);
  }
}
