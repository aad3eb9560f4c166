import { httpDefect } from '../defect.ts';

export default httpDefect({
  name: 'media-type-not-checked',
  clause: 'wire-json',
  does: 'a body sent with any media type is read as JSON instead of UNSUPPORTED_MEDIA_TYPE',
  requests: (next) => (req, res) => {
    if (req.headers['content-type'] !== undefined) req.headers['content-type'] = 'application/json';
    next(req, res);
  },
});
