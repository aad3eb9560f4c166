// Topology preferences a resolve may carry ([route-order], [route-eligibility]):
// none, a preferred region, region and zone, a capacity class filter, and a
// region that must not be left.
import type { TopologyPreference } from '../../../contract/records.ts';

export const TOPOLOGY_CHOICES = ['none', 'prefer-eu', 'prefer-us-1', 'class-large', 'eu-only'] as const;
export type TopologyChoice = (typeof TOPOLOGY_CHOICES)[number];

const PREFERENCES: Record<TopologyChoice, TopologyPreference | undefined> = {
  none: undefined,
  'prefer-eu': { region: 'eu' },
  'prefer-us-1': { region: 'us', zone: 'us-1' },
  'class-large': { capacity_class: 'large' },
  'eu-only': { region: 'eu', allow_cross_region: false },
};

export function preferenceOf(choice: TopologyChoice): { topology?: TopologyPreference } {
  const p = PREFERENCES[choice];
  return p ? { topology: p } : {};
}

export function describeTopology(choice: TopologyChoice): string {
  return choice === 'none' ? '' : ` (${choice})`;
}
