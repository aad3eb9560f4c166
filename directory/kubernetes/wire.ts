// Decoding of Kubernetes JSON: list documents, watch envelopes and Status
// objects. Only structure is checked here; whether an object belongs to the
// binding is normalize.ts's job. Lists fail as invalid data; envelopes fail
// as watch_event_invalid, since a broken stream is an interrupted watch.
import { directoryError, invalidInput, type DirectoryError } from '../outcome.ts';
import { isOpaqueToken } from '../text.ts';

export type JsonObject = Record<string, unknown>;

export const MAX_RESOURCE_VERSION_CHARS = 1024;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isResourceVersion(value: unknown): value is string {
  return isOpaqueToken(value, MAX_RESOURCE_VERSION_CHARS);
}

export interface DecodedList {
  resourceVersion: string;
  items: JsonObject[];
}

/** A list body: items plus a resourceVersion and no continuation. */
export function decodeList(bytes: Uint8Array): DecodedList {
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw invalidInput();
  }
  if (!isObject(doc) || !isObject(doc['metadata'])) throw invalidInput();
  const meta = doc['metadata'];
  // A continuation would mean a partial list: the directory never pages.
  if (meta['continue'] !== undefined && meta['continue'] !== '') throw invalidInput();
  if (!isResourceVersion(meta['resourceVersion'])) throw invalidInput();
  const items = doc['items'] ?? [];
  if (!Array.isArray(items) || !items.every(isObject)) throw invalidInput();
  return { resourceVersion: meta['resourceVersion'], items };
}

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'ERROR';
const EVENT_TYPES: readonly string[] = ['ADDED', 'MODIFIED', 'DELETED', 'ERROR'];

export interface WatchEnvelope {
  type: EventType;
  object: JsonObject;
}

const eventInvalid = (): DirectoryError => directoryError('watch_interrupted', 'watch_event_invalid');

/**
 * One watch line: exactly one JSON value with a known type and a non-empty
 * object. BOOKMARK is unknown here on purpose: bookmarks are never requested.
 */
export function decodeEnvelope(line: string): WatchEnvelope {
  let doc: unknown;
  try {
    doc = JSON.parse(line);
  } catch {
    throw eventInvalid();
  }
  if (!isObject(doc) || typeof doc['type'] !== 'string' || !EVENT_TYPES.includes(doc['type'])) throw eventInvalid();
  const object = doc['object'];
  if (!isObject(object) || Object.keys(object).length === 0) throw eventInvalid();
  return { type: doc['type'] as EventType, object };
}

/** The outcome an in-stream Status ends the watch with. */
export function statusOutcome(object: JsonObject): DirectoryError {
  const code = object['code'];
  if (object['kind'] !== undefined && object['kind'] !== 'Status') throw eventInvalid();
  if (code !== undefined && !Number.isInteger(code)) throw eventInvalid();
  // Only 410 means "relist": every other status on a live stream interrupts it,
  // whatever the same code would have meant before the watch opened.
  if (code === 410) return directoryError('stale', 'resource_version_expired');
  return directoryError('watch_interrupted', 'watch_status_error');
}

export interface ObjectMeta {
  name: unknown;
  namespace: unknown;
  uid: unknown;
  resourceVersion: unknown;
  labels: Record<string, unknown>;
  ownerReferences: unknown;
}

export function metadataOf(object: JsonObject): ObjectMeta {
  const meta = object['metadata'];
  if (!isObject(meta)) throw invalidInput();
  const labels = meta['labels'] ?? {};
  if (!isObject(labels)) throw invalidInput();
  return {
    name: meta['name'],
    namespace: meta['namespace'],
    uid: meta['uid'],
    resourceVersion: meta['resourceVersion'],
    labels,
    ownerReferences: meta['ownerReferences'],
  };
}
