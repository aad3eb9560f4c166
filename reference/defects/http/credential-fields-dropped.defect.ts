import { httpDefect } from '../defect.ts';
import { rewritingJsonBodies } from '../support/http.ts';

const CREDENTIAL = /secret|password|token|credential|api_key|private_key/i;
const REFERENCES = new Set(['secret_provider_ref', 'credential_revision_ref']);

function withoutCredentials(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCredentials);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => REFERENCES.has(k) || !CREDENTIAL.test(k))
      .map(([k, v]) => [k, withoutCredentials(v)]),
  );
}

/** Credential-looking members are quietly removed, so a write carrying a credential value is accepted. */
export default httpDefect({
  name: 'credential-fields-dropped',
  clause: 'records-no-credentials',
  does: 'a record carrying a credential value in a field of its own is accepted, the field dropped, instead of INVALID_REQUEST',
  requests: (next) => rewritingJsonBodies(next, (req) => req.method === 'PUT' || req.method === 'POST', withoutCredentials),
});
