// Text search as SQL LIKE without escaping some wildcards: `%` any run of
// characters, `_` any one, the way a registry that hands the filter to LIKE
// unescaped searches ([catalog-filters] says they are literal).
import type { RegistryPort } from '../../../contract/target-port.ts';

export function likeSearch(inner: RegistryPort, wildcards: string): Pick<RegistryPort, 'queryCatalog'> {
  return {
    async queryCatalog(query, ctx) {
      const text = query.text?.trim() ?? '';
      if (![...wildcards].some((w) => text.includes(w))) return inner.queryCatalog(query, ctx);
      const page = await inner.queryCatalog({ ...query, text: undefined }, ctx);
      const pattern = [...text]
        .map((ch) =>
          ch === '%' && wildcards.includes('%')
            ? '.*'
            : ch === '_' && wildcards.includes('_')
              ? '.'
              : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('');
      const like = new RegExp(pattern, 'i');
      const capabilities = page.capabilities.filter((d) =>
        like.test(`${d.capability.id} ${d.capability.name} ${d.capability.description}`),
      );
      return { ...page, capabilities, total: capabilities.length };
    },
  };
}
