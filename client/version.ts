// GET /version [ops-version]: which implementation serves the binding, which
// contract it implements, and the limits and features a run is sized by. It
// is public, so it is asked without credentials. Every side reads it here;
// what it must hold is each side's own check.
import type { VersionInfo } from '../contract/records.ts';
import { HttpTransport, jsonBody, TransportError, type Received } from './http-transport.ts';
import { FleetproofError } from './errors.ts';

export class VersionUnavailable extends FleetproofError {
  constructor(
    message: string,
    /** Set when the request never reached the target. */
    readonly unreachable: boolean,
    options?: ErrorOptions,
    /** The answer, when there was one and it was not a VersionInfo object. */
    readonly received?: Received,
  ) {
    super('FP_ERR_VERSION', message, options);
  }
}

export interface VersionReading {
  /** The answer as the target gave it: a JSON object, not yet checked against VersionInfo. */
  version: VersionInfo;
  /** The Date header, a coarse reading of the target's clock. */
  date: string | undefined;
  received: Received;
}

export async function readVersionInfo(transport: HttpTransport): Promise<VersionReading> {
  let received: Received;
  try {
    received = await transport.operation('getVersionInfo', { as: null });
  } catch (err) {
    if (!TransportError.is(err)) throw err;
    throw new VersionUnavailable(`target unreachable: ${err.message}`, err.failure === 'unreachable', { cause: err });
  }
  if (received.status !== 200) throw new VersionUnavailable(`GET /version answered ${received.status}`, false, undefined, received);
  let body: unknown;
  try {
    body = jsonBody(received);
  } catch (err) {
    throw new VersionUnavailable((err as Error).message, false, undefined, received);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new VersionUnavailable('GET /version did not answer a JSON object', false, undefined, received);
  return { version: body as VersionInfo, date: received.headers['date'], received };
}
