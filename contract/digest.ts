// The digests of spec.md [digest-canonical-json]: SHA-256 over UTF-8 text, in
// lowercase hex, and `sha256:` + that over a value's canonical JSON. One
// definition for the reference, the harness parts and the benchmarks (the k6
// scripts use k6/crypto, handed the same contract through builders.js).
import { hash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

export function digestOf(value: unknown): string {
  return `sha256:${sha256Hex(canonicalJson(value))}`;
}
