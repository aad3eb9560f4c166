// Run-scoped identifiers. Every id a case creates embeds the run id
// (client/run-id.ts) and a tag of the case, so runs (and cases) never
// collide on a shared server, and a vendor can tell from any record which run
// and case made it. The shapes
// follow openapi.yaml: ctype_/cver_/cinst_/crepl_ + [A-Za-z0-9._-]{1,120};
// tenants, capabilities, actions and policies [A-Za-z0-9][A-Za-z0-9._:-]*.
import { createHash } from 'node:crypto';

/** A short, readable and unique tag of a case id: its last path segment, cut, plus a hash. */
export function caseTag(caseId: string): string {
  const slug = (caseId.split('/').pop() ?? caseId)
    .replace(/[^A-Za-z0-9-]/g, '-')
    .slice(0, 24)
    .replace(/-+$/, '');
  const hash = createHash('sha256').update(caseId).digest('hex').slice(0, 4);
  return `${slug}-${hash}`;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

export class Ids {
  private counter = 0;
  /** `<run id>.<case tag>`, shared by every id of the case. */
  readonly prefix: string;

  constructor(runId: string, caseId: string) {
    this.prefix = `${runId}.${caseTag(caseId)}`;
  }

  private part(name: string | undefined): string {
    if (name === undefined) return String(++this.counter);
    if (!NAME.test(name)) throw new Error(`id name ${JSON.stringify(name)} must match ${NAME}`);
    return name;
  }

  type(name?: string): string {
    return `ctype_${this.prefix}.${this.part(name)}`;
  }
  version(name?: string): string {
    return `cver_${this.prefix}.${this.part(name)}`;
  }
  instance(name?: string): string {
    return `cinst_${this.prefix}.${this.part(name)}`;
  }
  replica(name?: string): string {
    return `crepl_${this.prefix}.${this.part(name)}`;
  }
  tenant(name?: string): string {
    return `tn.${this.prefix}.${this.part(name)}`;
  }
  capability(name?: string): string {
    return `cap.${this.prefix}.${this.part(name)}`;
  }
  action(name?: string): string {
    return `act.${this.prefix}.${this.part(name)}`;
  }
  policy(name?: string): string {
    return `pol.${this.prefix}.${this.part(name)}`;
  }
  /** A version string unique within this case (versions of one type need distinct strings). */
  semver(): string {
    return `${++this.counter}.0.0`;
  }
}
