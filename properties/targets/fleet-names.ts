// The logical names of the property fleet's tenants, capabilities, profiles,
// connector types and policies: what the universe (universe.ts) and its
// layout over the registry's limits (fleet-layout.ts) both speak of.
export const TENANTS = ['a', 'b'] as const;
export type TenantKey = (typeof TENANTS)[number];

/** `archive` is declared only by beta-1 and bound to nobody at first. */
export const CAPABILITIES = ['search', 'fetch', 'notify', 'archive'] as const;
export type CapabilityKey = (typeof CAPABILITIES)[number];

export const PROFILES = ['http', 'grpc'] as const;
export type ProfileKey = (typeof PROFILES)[number];

export const TYPES = ['alpha', 'beta'] as const;
export type TypeKey = (typeof TYPES)[number];

export const POLICIES = ['tight', 'roomy'] as const;
export type PolicyKey = (typeof POLICIES)[number];
