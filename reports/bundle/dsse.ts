// DSSE envelopes (Dead Simple Signing Envelope, v1) signed with Ed25519:
// the signature covers the pre-authentication encoding of the payload type
// and the payload bytes, so neither can be swapped without detection.
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export interface DsseSignature {
  keyid: string;
  sig: string;
}

export interface DsseEnvelope {
  payloadType: string;
  /** base64 of the payload bytes. */
  payload: string;
  signatures: DsseSignature[];
}

/** PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths in bytes. */
export function preAuthEncoding(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${payload.length} `), payload]);
}

export function signEnvelope(payloadType: string, payload: Buffer, key: KeyObject, keyid: string): DsseEnvelope {
  const sig = sign(null, preAuthEncoding(payloadType, payload), key).toString('base64');
  return { payloadType, payload: payload.toString('base64'), signatures: [{ keyid, sig }] };
}

/** True when some signature of the envelope verifies under `key`. */
export function envelopeVerifies(envelope: DsseEnvelope, key: KeyObject): boolean {
  const pae = preAuthEncoding(envelope.payloadType, Buffer.from(envelope.payload, 'base64'));
  return envelope.signatures.some((s) => {
    try {
      return verify(null, pae, key, Buffer.from(s.sig, 'base64'));
    } catch {
      return false;
    }
  });
}

/** Ed25519 keys from JWK (the format of fleetproof's signing keys). */
export function privateKeyFromJwk(jwk: object): KeyObject {
  return createPrivateKey({ key: jwk as never, format: 'jwk' });
}

export function publicKeyFromJwk(jwk: object): KeyObject {
  return createPublicKey({ key: jwk as never, format: 'jwk' });
}
