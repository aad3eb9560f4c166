// Kubernetes naming rules the binding and the decoders check. Values are
// never repaired: anything outside the rule is invalid configuration or
// invalid provider data.
import { isIPv4, isIPv6 } from 'node:net';

const LABEL_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const PORT_NAME = /^[a-z]([-a-z0-9]{0,13}[a-z0-9])?$/;

/** A namespace: a DNS-1123 label (no dots). */
export function isNamespace(value: unknown): value is string {
  return typeof value === 'string' && DNS1123_LABEL.test(value);
}

/** A Service name: a DNS-1035 label (starts with a letter). */
export function isServiceName(value: unknown): value is string {
  return typeof value === 'string' && DNS1035_LABEL.test(value);
}

/** A label key: an optional DNS-subdomain prefix and '/', then a name of at most 63. */
export function isLabelKey(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const slash = value.indexOf('/');
  if (slash === -1) return LABEL_NAME.test(value);
  const prefix = value.slice(0, slash);
  const name = value.slice(slash + 1);
  return prefix.length <= 253 && DNS1123_SUBDOMAIN.test(prefix) && LABEL_NAME.test(name);
}

/** A label value used as a marker: non-empty, at most 63, the label-name alphabet. */
export function isLabelValue(value: unknown): value is string {
  return typeof value === 'string' && LABEL_NAME.test(value);
}

/** A named port: at most 15 lower-case letters, digits and '-', starting with a letter. */
export function isPortName(value: unknown): value is string {
  return typeof value === 'string' && PORT_NAME.test(value);
}

/**
 * Canonical IP text of one family: what the WHATWG host parser prints back
 * unchanged. IPv6 excludes IPv4-mapped addresses, which would let one pod
 * appear under two families.
 */
export function isCanonicalAddress(value: unknown, family: 'IPv4' | 'IPv6'): value is string {
  if (typeof value !== 'string') return false;
  if (family === 'IPv4') {
    if (!isIPv4(value)) return false;
    try {
      return new URL(`http://${value}/`).hostname === value;
    } catch {
      return false;
    }
  }
  if (!isIPv6(value) || value.includes('%')) return false;
  let printed: string;
  try {
    printed = new URL(`http://[${value}]/`).hostname;
  } catch {
    return false;
  }
  return printed === `[${value}]` && !/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(value);
}
