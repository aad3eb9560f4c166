import { boundBesideUnbound, visibleTo } from '../../harness/catalog.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/unbound-capabilities-stay-hidden',
  clause: 'catalog-tenant-visibility',
  category: 'catalog',
  description: 'only bound capabilities of a version are visible, and only under a profile the version declares',
  async run(ctx) {
    const { fleet, bound, unbound } = await boundBesideUnbound(ctx, { profiles: ['p.alpha', 'p.beta'] });
    expectEqual(await visibleTo(ctx, fleet.tenant, bound.id), true, 'the bound capability');
    expectEqual(await visibleTo(ctx, fleet.tenant, unbound.id), false, 'the unbound capability beside it');
    expectEqual(await visibleTo(ctx, fleet.tenant, bound.id, 'p.beta'), true, 'under a declared profile');
    expectEqual(await visibleTo(ctx, fleet.tenant, bound.id, 'p.gamma'), false, 'under a profile the version does not declare');
  },
});
