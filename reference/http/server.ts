// The reference registry over HTTP: node:http, a route table from
// openapi.yaml, and one pipeline every request walks in the contract's order
// ([auth-before-state]): route → token → roles → media type → size → JSON →
// shape → store. The server holds no registry state of its own, so several
// processes can serve one shared store.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { JSONWebKeySet } from 'jose';
import { openApiDocument, type OperationEntry } from '../../contract/openapi.ts';
import { CONTRACT_VERSION, type RegistryLimits, type VersionInfo } from '../../contract/records.ts';
import { referenceChoices, type ReferenceChoices } from '../domain/choices.ts';
import { validateLimits } from '../domain/limits.ts';
import { RegistryError } from '../../contract/registry-error.ts';
import type { RegistryStore } from '../store/registry-store.ts';
import { TokenVerifier, type Principal } from './authenticate.ts';
import { guardConnections, headRefusal, resolveConnectionLimits, serverOptions, type ConnectionLimits } from './connection-limits.ts';
import { errorReply, type ErrorLogger } from './error-response.ts';
import { HANDLERS } from './handlers/index.ts';
import { HttpMetrics } from './metrics.ts';
import type { OperationHandler, OperationInput, Reply, ServerDeps } from './operation.ts';
import { refuseIntegralFractions } from './integral-fractions.ts';
import { checkDeclaredLength, checkMediaType, MAX_JSON_DEPTH, parseJson, readBody } from './request-body.ts';
import { discardRest } from './unread-body.ts';
import { compileValidators, type OperationValidators } from './request-validation.ts';
import { RouteTable } from './route-table.ts';

/** How the reference names itself in /version: the package it ships in, at that package's version. */
const REFERENCE_IMPLEMENTATION = {
  name: 'fleetproof-reference',
  version: (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version,
};

export interface RegistryServerOptions {
  store: RegistryStore;
  /** The public keys tokens are verified against. */
  jwks: JSONWebKeySet;
  audience?: string;
  /** The body limit the server enforces; every other limit is the store's. */
  limits?: Partial<Pick<RegistryLimits, 'max_body_bytes'>>;
  implementation?: { name: string; version: string };
  /** Milliseconds since the epoch, for token times; injectable for tests. */
  now?: () => number;
  log?: ErrorLogger;
  /** How long close() lets in-flight requests finish before cutting connections. */
  shutdownGraceMs?: number;
  /** Timeouts, connection cap and head limits; DEFAULT_CONNECTION_LIMITS for what is not given. */
  connections?: Partial<ConnectionLimits>;
  /** The implementation-defined behaviours of the HTTP layer, when not the reference's own (a variant's). */
  choices?: Partial<ReferenceChoices>;
  /** What `GET /version` says of the variant served, if any: its seed and what it drew. */
  variant?: VersionInfo['variant'];
}

export interface RegistryServer {
  readonly httpServer: Server;
  /** `http://host:port` once listening. */
  readonly url: string | undefined;
  listen(port?: number, host?: string): Promise<string>;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

interface PreparedOperation {
  entry: OperationEntry;
  operationId: string;
  /** null: public; otherwise every role listed is needed. */
  roles: readonly string[] | null;
  validators: OperationValidators;
  /** A body nested deeper is refused while it arrives: its schema's deepest value, within the contract's bound. */
  maxNesting: number;
  handler: OperationHandler;
}

const REQUEST_ID = /^[\x20-\x7e]{1,128}$/;
/** Refusals of the request head, which close the connection ([wire-head-limits]). */
const CLOSES_CONNECTION: ReadonlySet<string> = new Set(['URI_TOO_LONG', 'HEADERS_TOO_LARGE']);

/**
 * [wire-nesting]: a closed schema's deepest legal value bounds its body
 * closer than the contract does; open content gets the contract's bound.
 */
function nestingBound(deepestLegal: number): number {
  return Math.min(deepestLegal, MAX_JSON_DEPTH);
}

function prepareOperations(table: RouteTable): Map<OperationEntry, PreparedOperation> {
  const prepared = new Map<OperationEntry, PreparedOperation>();
  const seen = new Set<string>();
  for (const entry of table.entries) {
    const operationId = entry.operation.operationId;
    const handler = HANDLERS[operationId];
    if (!handler) throw new Error(`openapi.yaml operation ${operationId} has no handler`);
    if (seen.has(operationId)) throw new Error(`openapi.yaml names operation ${operationId} twice`);
    seen.add(operationId);
    const validators = compileValidators(entry);
    const maxNesting = nestingBound(validators.bodyNesting);
    prepared.set(entry, { entry, operationId, roles: entry.roles, validators, maxNesting, handler });
  }
  for (const id of Object.keys(HANDLERS)) if (!seen.has(id)) throw new Error(`handler ${id} serves no operation of openapi.yaml`);
  return prepared;
}

function requestIdOf(req: IncomingMessage, generate: () => string): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : generate();
}

/** Decision 28: a path parameter outside its pattern is INVALID_REQUEST or NOT_FOUND, as the registry chose. */
function pathParamsReader(answer: ReferenceChoices['badPathParameter']) {
  return (op: PreparedOperation, raw: Record<string, string>): Record<string, string> => {
    try {
      return op.validators.params(raw);
    } catch (err) {
      if (answer === 'NOT_FOUND' && RegistryError.is(err) && err.code === 'INVALID_REQUEST')
        throw new RegistryError('NOT_FOUND', 'no record has this id');
      throw err;
    }
  };
}

function authorise(op: PreparedOperation, principal: Principal): void {
  for (const role of op.roles!) {
    if (!principal.roles.has(role)) throw new RegistryError('FORBIDDEN', `${op.operationId} needs ${role}`);
  }
  op.handler.authorize?.(principal);
}

export function createRegistryServer(options: RegistryServerOptions): RegistryServer {
  const table = new RouteTable();
  const prepared = prepareOperations(table);
  const choices = referenceChoices(options.choices);
  const verifier = new TokenVerifier({ jwks: options.jwks, audience: options.audience, now: options.now, choices });
  const pathParams = pathParamsReader(choices.badPathParameter);
  const log: ErrorLogger = options.log ?? ((message, err) => console.error(message, err));
  const limits = validateLimits({ ...options.store.limits, ...options.limits });
  const version: VersionInfo = {
    implementation: options.implementation ?? REFERENCE_IMPLEMENTATION,
    contract: CONTRACT_VERSION,
    limits,
    features: ['metrics'],
    ...(options.variant ? { variant: options.variant } : {}),
  };
  const connectionLimits = resolveConnectionLimits(options.connections);
  const metrics = new HttpMetrics();
  const deps: ServerDeps = { store: options.store, limits, version, metrics, openApiJson: JSON.stringify(openApiDocument()), log };
  const idPrefix = randomBytes(4).toString('hex');
  let requestCounter = 0;
  const nextRequestId = choices.requestIds === 'uuid' ? randomUUID : () => `${idPrefix}-${(++requestCounter).toString(36)}`;
  let closing = false;

  function send(
    req: IncomingMessage,
    res: ServerResponse,
    started: number,
    operationId: string,
    requestId: string,
    reply: Reply,
    extra?: Record<string, string>,
  ): void {
    const payload = reply.text ?? JSON.stringify(reply.body);
    const headers: Record<string, string | number> = {
      'content-type': reply.contentType ?? 'application/json',
      'content-length': Buffer.byteLength(payload),
      'x-request-id': requestId,
    };
    if (extra) Object.assign(headers, extra);
    // An answer sent before the whole body arrived leaves the rest to be read and discarded, or the connection to be closed.
    const closes = closing || headers['connection'] === 'close' || (!req.complete && !discardRest(req, limits.max_body_bytes));
    if (closes) headers['connection'] = 'close';
    res.writeHead(reply.status, headers);
    res.end(payload);
    metrics.observe(operationId, reply.status, (performance.now() - started) / 1000);
  }

  async function run(op: PreparedOperation, req: IncomingMessage, rawParams: Record<string, string>, search: string): Promise<Reply> {
    // A cached token answers at once; only a first sight of a token waits for its signature check.
    const authorization = req.headers.authorization;
    const principal =
      op.roles === null ? null : (verifier.cachedPrincipal(authorization, req.socket) ?? (await verifier.authenticate(authorization)));
    if (principal) authorise(op, principal);
    // [error-precedence]: beyond the token and the role, the order of these checks is this registry's choice.
    let params: Record<string, string> | undefined;
    let query: Record<string, unknown> | undefined;
    if (choices.paramsBeforeBody) {
      params = pathParams(op, rawParams);
      query = op.validators.query(search);
    }
    let body: unknown;
    if (op.validators.body) {
      if (choices.sizeBeforeMediaType) checkDeclaredLength(req, limits.max_body_bytes);
      checkMediaType(req, choices.emptyBodyWithoutMediaType);
      const bytes = await readBody(req, limits.max_body_bytes, op.maxNesting);
      body = parseJson(bytes);
      if (!choices.readIntegralFractions) refuseIntegralFractions(bytes.toString('utf8'));
    }
    params ??= pathParams(op, rawParams);
    query ??= op.validators.query(search);
    op.validators.body?.(body);
    const input: OperationInput = { params, query, body, principal };
    return await op.handler.handle(input, deps);
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const requestId = requestIdOf(req, nextRequestId);
    let operationId = 'unmatched';
    try {
      const url = req.url ?? '';
      const refused = headRefusal(connectionLimits, url, req.rawHeaders);
      if (refused) throw refused;
      const q = url.indexOf('?');
      const match = table.match(req.method ?? '', q === -1 ? url : url.slice(0, q));
      if (match.kind === 'no-route') throw new RegistryError('NOT_FOUND', 'no operation at this path');
      if (match.kind === 'method-not-allowed') {
        const reply = errorReply(new RegistryError('METHOD_NOT_ALLOWED', `${req.method} is not supported here`), requestId, log);
        return send(req, res, started, operationId, requestId, reply, { allow: match.allow });
      }
      const op = prepared.get(match.entry)!;
      operationId = op.operationId;
      send(req, res, started, operationId, requestId, await run(op, req, match.rawParams, q === -1 ? '' : url.slice(q + 1)));
    } catch (err) {
      const reply = errorReply(err, requestId, log, choices.capacityRetryAfterMs);
      const extra = CLOSES_CONNECTION.has(reply.body.error.code) ? { ...reply.headers, connection: 'close' } : reply.headers;
      if (!res.headersSent) send(req, res, started, operationId, requestId, reply, extra);
      else res.destroy();
    }
  }

  // onRequest answers every error itself; this catches only a failure to answer at all.
  const httpServer = createServer(serverOptions(connectionLimits), (req, res) => {
    onRequest(req, res).catch((err: unknown) => {
      log('a response could not be written', err);
      res.destroy();
    });
  });
  guardConnections(httpServer, connectionLimits, nextRequestId, log);
  let url: string | undefined;

  return {
    httpServer,
    get url() {
      return url;
    },
    listen(port = 0, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          httpServer.off('error', reject);
          const address = httpServer.address() as AddressInfo;
          const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          url = `http://${shownHost}:${address.port}`;
          resolve(url);
        });
      });
    },
    close() {
      closing = true;
      if (!httpServer.listening) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const cutoff = setTimeout(() => httpServer.closeAllConnections(), options.shutdownGraceMs ?? 10_000);
        cutoff.unref();
        httpServer.close((err) => {
          clearTimeout(cutoff);
          if (err) reject(err);
          else resolve();
        });
        // Idle keep-alive connections would otherwise hold close() open; busy ones answer with Connection: close.
        httpServer.closeIdleConnections();
      });
    },
  };
}
