// The digests every side computes the same way (spec.md §5): SHA-256 in hex,
// and `sha256:` over a value's canonical JSON.
import { hash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

export function digestOf(value: unknown): string {
  return `sha256:${sha256Hex(canonicalJson(value))}`;
}
