import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'capacity-class-ignored',
  clause: 'route-eligibility',
  does: 'a requested capacity class does not filter the replicas a new route may take',
  changes: (inner) => ({
    resolve(tenantId, request) {
      if (request.topology?.capacity_class === undefined) return inner.resolve(tenantId, request);
      const { capacity_class: _ignored, ...topology } = request.topology;
      return inner.resolve(tenantId, { ...request, topology });
    },
  }),
});
