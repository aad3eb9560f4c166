// The paragraph a scale qualification report ends its opening with: what its
// verdict claims about the registry and what it does not, in words drawn
// from the report itself (profile, overrides, faults, engine, the load
// machine and how busy it was), so a datasheet is not read for more than it says.
import type { MaybeUnderFaults } from '../../load/runner/judge-under-faults.ts';
import { undecidedVerdict } from '../../load/runner/load-report.ts';
import { measured } from '../figures.ts';

function machine(r: MaybeUnderFaults): string {
  const m = r.environment.machine;
  const load = m.load_average
    ? `, load average ${measured(m.load_average.at_start[0]!)} as it started and ${measured(m.load_average.at_end[0]!)} as it ended`
    : '';
  return `one load machine (${m.cpus} cores${load}) running ${r.environment.engine.name} ${r.environment.engine.version}`;
}

export function claims(r: MaybeUnderFaults): { claims: string; doesNotClaim: string } {
  const target = r.environment.target.url;
  const profile = `the ${r.profile} profile`;
  const speedJudged = r.profile_info?.judges_speed !== false;
  let claimed: string;
  if (undecidedVerdict(r.verdict))
    claimed = `Nothing about the registry: the run could not judge it (${r.could_not_judge[0] ?? 'see the reasons above'}).`;
  else if (r.breakpoint)
    claimed =
      r.breakpoint.highest_held_rate === null
        ? `That at the ramp's first rate, from ${machine(r)}, the registry at ${target} did not hold every SLO of ${profile}.`
        : `That from ${machine(r)}, the registry at ${target} held every SLO of ${profile} at every rate up to ${r.breakpoint.highest_held_rate} routes/s, and where it stopped: ${r.breakpoint.limit}`;
  else if (r.verdict === 'pass')
    claimed = `That the registry at ${target}, driven from ${machine(r)}, held ${speedJudged ? 'every threshold' : 'every correctness threshold'} of ${profile} through its ${r.phases.length} phases on the dataset listed, with every phase check passing and the audit afterwards finding every invariant intact (no route moved, nothing overbooked, every reservation released).`;
  else claimed = `That the registry at ${target}, driven from ${machine(r)}, did not meet ${profile}: ${r.reasons.slice(0, 2).join('; ')}.`;
  const not: string[] = [];
  if (!speedJudged)
    not.push(
      `anything about latency or throughput: ${r.profile}'s thresholds judge correctness only, and its figures are shown, not judged`,
    );
  if (r.overrides.length) not.push(`a verdict on the profile as published: it ran with overrides (${r.overrides.join(', ')})`);
  if (r.faults) not.push('speed under faults: under the nemesis, thresholds were measured and the verdict rests on the audit');
  not.push('behaviour at other rates, dataset sizes or durations than these');
  not.push(
    'that another deployment, or another load machine, would measure the same: every latency here includes the load machine and the network between',
  );
  if (!r.faults) not.push('behaviour under faults (no nemesis ran)');
  return { claims: claimed, doesNotClaim: `It does not claim ${not.join('; nor ')}.` };
}
