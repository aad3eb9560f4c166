// Every limit a request can reach is judged at the limit itself as well as
// one past it: a registry refusing exactly at a declared limit (an off-by-one
// `>=`) fails the case that sends a request of that size, and the correct
// registry passes it, under the default limits, every limit at its minimum,
// and odd values just above.
import assert from 'node:assert/strict';
import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { DEFAULT_LIMITS, type RegistryLimits } from '../../contract/records.ts';
import { describeLimits, SMALLEST_LEGAL_LIMITS as MINIMA } from './legal-limits.ts';
import { caseStatus, type OffLimits } from './limit-targets.ts';

/** A front answering 413 to any body of `max` bytes or more, as a registry off by one on [wire-body-limit] would. */
const refusingBodiesOf = (max: number) => async (url: string) => {
  const upstream = new URL(url);
  const proxy = createServer((req, res) => {
    if (Number(req.headers['content-length'] ?? 0) >= max) {
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify({ error: { code: 'PAYLOAD_TOO_LARGE', message: `at least ${max} bytes`, request_id: 'front' } }));
      return;
    }
    const out = forward({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (a) => {
      res.writeHead(a.statusCode ?? 502, a.headers);
      a.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
};

/**
 * The store limit enforced one below what is declared: the declared value itself is refused. The reference's
 * store takes only legal limits, so such a registry declares one above a minimum at the least.
 */
const oneBelow =
  (key: keyof RegistryLimits) =>
  (limits: RegistryLimits): OffLimits => ({ enforced: { [key]: limits[key] - 1 } });

const PROBES: Array<{ id: string; off: (limits: RegistryLimits) => OffLimits; settings: Array<Partial<RegistryLimits>> }> = [
  {
    id: 'wire/body-of-exactly-max-body-bytes-is-accepted',
    off: (l) => ({ front: refusingBodiesOf(l.max_body_bytes) }),
    settings: [{}, MINIMA, { max_body_bytes: 65_537 }],
  },
  {
    id: 'batch/batch-of-exactly-max-batch-items-is-accepted',
    off: oneBelow('max_batch_items'),
    settings: [
      { ...MINIMA, max_batch_items: 1001 },
      { max_batch_items: 1003, max_body_bytes: 65_537 },
    ],
  },
  {
    id: 'records/declared-capability-limit-is-the-enforced-one',
    off: oneBelow('max_capabilities_per_version'),
    settings: [{}, { ...MINIMA, max_capabilities_per_version: 2 }, { max_capabilities_per_version: 33, max_manifest_bytes: 4097 }],
  },
  {
    id: 'records/capability-of-max-capability-bytes-is-admitted',
    off: oneBelow('max_capability_bytes'),
    settings: [
      { ...MINIMA, max_capability_bytes: 2049, max_page_bytes: 2049 },
      { max_capability_bytes: 3001, max_page_bytes: 3001, max_manifest_bytes: 4097 },
    ],
  },
  {
    id: 'leases/expiry-limit-of-max-expiry-batch-is-accepted',
    off: oneBelow('max_expiry_batch'),
    settings: [{}, { max_expiry_batch: 2 }, { max_expiry_batch: 7 }],
  },
];

describe('each limit a request can reach is accepted at the limit itself', () => {
  for (const { id, off, settings } of PROBES)
    for (const limits of settings)
      it(`${id} with ${limits === MINIMA ? 'every limit at its minimum' : describeLimits(limits) || 'the default limits'}`, async () => {
        assert.match(await caseStatus(id, limits), /^pass/, 'the correct registry');
        assert.match(await caseStatus(id, limits, off({ ...DEFAULT_LIMITS, ...limits })), /^fail/, 'a registry refusing at the limit');
      });
});
