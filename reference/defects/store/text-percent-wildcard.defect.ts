import { storeDefect } from '../defect.ts';
import { likeSearch } from '../support/like-search.ts';

export default storeDefect({
  name: 'text-percent-wildcard',
  clause: 'catalog-filters',
  does: 'the catalog text filter takes % as a wildcard, as an unescaped SQL LIKE does',
  changes: (inner) => likeSearch(inner, '%'),
});
