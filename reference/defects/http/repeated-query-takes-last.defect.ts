import { httpDefect } from '../defect.ts';

export default httpDefect({
  name: 'repeated-query-takes-last',
  clause: 'wire-query',
  does: 'a query parameter given more than once takes its last value instead of INVALID_REQUEST',
  requests: (next) => (req, res) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    if (q !== -1) {
      const params = new URLSearchParams(url.slice(q + 1));
      const last = new URLSearchParams([...new Map(params).entries()]);
      req.url = `${url.slice(0, q)}?${last.toString()}`;
    }
    next(req, res);
  },
});
