import { defineCase } from '../../harness/define-case.ts';
import { expectOk, expectOneOf } from '../../harness/expect.ts';
import { nearKeys } from '../../harness/near-keys.ts';

export default defineCase({
  id: 'records/keys-near-a-stored-one-are-not-found',
  clause: 'records-reads',
  category: 'records',
  description: 'a key one byte, one part or one letter case away from a stored key reads 404, never that record',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ policy: {} });
    const r = ctx.reader;
    const reads = [
      { prefix: 'ctype_', key: fleet.type.id, read: (k: string) => r.call('getConnectorType', { params: { type_id: k } }) },
      { prefix: 'cver_', key: fleet.version.id, read: (k: string) => r.call('getVersion', { params: { version_id: k } }) },
      { prefix: 'cinst_', key: fleet.instance.id, read: (k: string) => r.call('getInstance', { params: { instance_id: k } }) },
      { prefix: 'crepl_', key: fleet.replicas[0]!.id, read: (k: string) => r.call('getReplica', { params: { replica_id: k } }) },
      { prefix: '', key: fleet.policy!.policy_ref, read: (k: string) => r.call('getAdmissionPolicy', { params: { policy_ref: k } }) },
    ];
    const taken = new Set(reads.map((x) => x.key));
    for (const { prefix, key, read } of reads) {
      // The real key reads its record, so a 404 below is about the key, not the read.
      expectOk(await read(key), `${key} itself`);
      for (const near of nearKeys(key, prefix, taken))
        expectOneOf(await read(near.key), near.codes, `${key} with ${near.how} (${JSON.stringify(near.key)})`);
    }
  },
});
