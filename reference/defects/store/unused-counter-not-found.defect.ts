import { notFound } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'unused-counter-not-found',
  clause: 'admission-counter-read',
  does: 'reading a counter no reservation ever used is NOT_FOUND instead of 0',
  changes: (inner) => {
    const used = new Set<string>();
    const remember = (scopes: readonly { kind: string; key: string }[]) => scopes.forEach((s) => used.add(`${s.kind}\u001f${s.key}`));
    return {
      async resolve(tenantId, request) {
        const view = await inner.resolve(tenantId, request);
        const a = view.assignment.admission;
        remember([...a.base_scopes, ...(a.retry_scope ? [a.retry_scope] : [])]);
        return view;
      },
      async getAdmissionCounter(kind, key) {
        const counter = await inner.getAdmissionCounter(kind, key);
        if (counter.active === 0 && !used.has(`${kind}\u001f${key}`)) throw notFound(`counter ${kind}/${key}`);
        return counter;
      },
    };
  },
});
