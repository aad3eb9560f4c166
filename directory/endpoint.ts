// One network endpoint of an instance. The root layer only checks that each
// field is exact text in range; whether an address is canonical for its
// family is the provider's job, since only it knows the source's rules.
import { invalidInput } from './outcome.ts';
import { compareText, deepFreeze, isExactText } from './text.ts';

export const ADDRESS_TYPES = ['IPv4', 'IPv6', 'DNS'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];
export const PROTOCOLS = ['TCP'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export interface NetworkEndpoint {
  readonly addressType: AddressType;
  readonly address: string;
  readonly portName: string;
  readonly port: number;
  readonly protocol: Protocol;
}

export function isValidEndpoint(value: unknown): value is NetworkEndpoint {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    (ADDRESS_TYPES as readonly unknown[]).includes(e['addressType']) &&
    isExactText(e['address']) &&
    isExactText(e['portName']) &&
    Number.isInteger(e['port']) &&
    (e['port'] as number) >= 1 &&
    (e['port'] as number) <= 65535 &&
    (PROTOCOLS as readonly unknown[]).includes(e['protocol'])
  );
}

export function createEndpoint(input: NetworkEndpoint): NetworkEndpoint {
  if (!isValidEndpoint(input)) throw invalidInput();
  const { addressType, address, portName, port, protocol } = input;
  return deepFreeze({ addressType, address, portName, port, protocol });
}

/** The total order: type, address, port name, port, protocol. */
export function compareEndpoints(a: NetworkEndpoint, b: NetworkEndpoint): number {
  return (
    compareText(a.addressType, b.addressType) ||
    compareText(a.address, b.address) ||
    compareText(a.portName, b.portName) ||
    a.port - b.port ||
    compareText(a.protocol, b.protocol)
  );
}

export function endpointKey(e: NetworkEndpoint): string {
  return `${e.addressType}\u001f${e.address}\u001f${e.portName}\u001f${e.port}\u001f${e.protocol}`;
}
