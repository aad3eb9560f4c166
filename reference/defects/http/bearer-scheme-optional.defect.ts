import { httpDefect } from '../defect.ts';

/** Whatever scheme precedes it, or none, the last word of the Authorization header is taken as the token. */
export default httpDefect({
  name: 'bearer-scheme-optional',
  clause: 'auth-bearer',
  does: 'an Authorization header with another scheme than Bearer, or none, is read as a bearer token',
  requests: (next) => (req, res) => {
    const token = req.headers.authorization?.trim().split(/\s+/).at(-1);
    if (token) req.headers.authorization = `Bearer ${token}`;
    next(req, res);
  },
});
