// What a directory can do, reported apart from the operations themselves, so
// a consumer can check for a capability instead of probing and failing.
import { invalidInput } from './outcome.ts';
import { compareText } from './text.ts';

export const CAPABILITY_VALUES = ['snapshot', 'observe', 'registration', 'deregistration', 'lease', 'heartbeat'] as const;
export type Capability = (typeof CAPABILITY_VALUES)[number];

export class Capabilities {
  readonly #values: readonly Capability[];

  private constructor(values: readonly Capability[]) {
    this.#values = Object.freeze([...values].sort(compareText));
  }

  /** Throws `invalid` for an unknown or repeated value. */
  static of(values: readonly string[]): Capabilities {
    if (!Array.isArray(values)) throw invalidInput();
    const seen = new Set<string>();
    for (const v of values) {
      if (!(CAPABILITY_VALUES as readonly string[]).includes(v) || seen.has(v)) throw invalidInput();
      seen.add(v);
    }
    return new Capabilities(values as Capability[]);
  }

  supports(value: Capability): boolean {
    return this.#values.includes(value);
  }

  /** A sorted copy. */
  values(): Capability[] {
    return [...this.#values];
  }

  equals(other: Capabilities): boolean {
    const theirs = other.values();
    return theirs.length === this.#values.length && theirs.every((v, i) => v === this.#values[i]);
  }

  /** True when every capability of `other` is also here. */
  includesAll(other: Capabilities): boolean {
    return other.values().every((v) => this.supports(v));
  }
}
