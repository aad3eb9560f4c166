import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'region-preference-ignored',
  clause: 'route-order',
  does: 'the requested region and zone do not order the replicas a new route chooses from',
  changes: (inner) => ({
    resolve(tenantId, request) {
      if (request.topology === undefined || request.topology.allow_cross_region === false) return inner.resolve(tenantId, request);
      const { region: _r, zone: _z, ...topology } = request.topology;
      return inner.resolve(tenantId, { ...request, topology });
    },
  }),
});
