import { httpDefect } from '../defect.ts';

/** The charset parameter is dropped before the media type is looked at. */
export default httpDefect({
  name: 'other-charset-accepted',
  clause: 'wire-json',
  does: 'application/json with a charset other than UTF-8 is accepted instead of UNSUPPORTED_MEDIA_TYPE',
  requests: (next) => (req, res) => {
    const type = req.headers['content-type'];
    if (type !== undefined && /^\s*application\/json\s*;/i.test(type)) req.headers['content-type'] = 'application/json';
    next(req, res);
  },
});
