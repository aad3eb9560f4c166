// The Node runner's `k6/crypto` subset: digests, HMAC and random bytes.
import { createHash, createHmac, randomBytes as nodeRandomBytes } from 'node:crypto';

/**
 * @param {Buffer} digest
 * @param {string} [encoding] 'hex', 'base64', 'base64url', 'base64rawurl' or 'binary' (ArrayBuffer)
 */
function encode(digest, encoding = 'binary') {
  if (encoding === 'hex') return digest.toString('hex');
  if (encoding === 'base64') return digest.toString('base64');
  if (encoding === 'base64url' || encoding === 'base64rawurl') return digest.toString('base64url');
  return digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.byteLength);
}

/** @param {string | ArrayBuffer} input */
const bytes = (input) => (typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.from(input));

/**
 * @param {string} algorithm
 * @returns {(input: string | ArrayBuffer, encoding?: string) => any}
 */
const digestWith = (algorithm) => (input, encoding) => encode(createHash(algorithm).update(bytes(input)).digest(), encoding);

export const md5 = digestWith('md5');
export const sha1 = digestWith('sha1');
export const sha256 = digestWith('sha256');
export const sha384 = digestWith('sha384');
export const sha512 = digestWith('sha512');

/**
 * @param {string} algorithm
 * @param {string | ArrayBuffer} secret
 * @param {string | ArrayBuffer} data
 * @param {string} [encoding]
 */
export function hmac(algorithm, secret, data, encoding) {
  return encode(createHmac(algorithm, bytes(secret)).update(bytes(data)).digest(), encoding);
}

/** @param {number} size */
export function randomBytes(size) {
  const b = nodeRandomBytes(size);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
}

export default { md5, sha1, sha256, sha384, sha512, hmac, randomBytes };
