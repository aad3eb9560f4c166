// The defaults and file names of the bearer token format (tokens.ts), apart
// from the cryptography that signs and verifies: the command line's helps
// name them without loading it.
export const DEFAULT_AUDIENCE = 'fleetproof-registry';
export const DEFAULT_TOKEN_TTL_SECONDS = 3600;
export const SIGNING_KEY_FILE = 'signing-key.jwk.json';
export const JWKS_FILE = 'jwks.json';
