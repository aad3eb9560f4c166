// `fleetproof verify BUNDLE`: checks a certification bundle — the signature,
// the digest of every result file it names, and that the stored results still
// derive the signed verdict. Exit 0 when all hold, 1 otherwise, 2 when the
// bundle or the key cannot be read (nothing was judged).
import { rederiveVerdict } from '../certify/verdict.ts';
import { verifyBundle } from '../reports/bundle/bundle.ts';
import { VERDICT_WORDS } from '../client/verdict-words.ts';
import { parseFlags, UsageError } from './args.ts';

import { FLAGS, POSITIONALS, summary } from './flags/verify.ts';

export async function run(argv: string[]): Promise<number> {
  const parsed = parseFlags('verify', summary, FLAGS, argv, { positionals: POSITIONALS });
  if (!parsed) return 0;
  const [bundle, ...extra] = parsed.positionals;
  if (bundle === undefined || extra.length > 0) throw new UsageError('give exactly one bundle file');
  const report = await verifyBundle(bundle, (dir) => rederiveVerdict(dir), parsed.values.pubkey);
  if (report.key) console.log(`key     ${report.key}`);
  for (const item of report.checked) console.log(`ok      ${item}`);
  for (const problem of report.problems) console.log(`FAILED  ${problem}`);
  if (!report.keyPinned)
    console.log('note: checked against the public key shipped beside the bundle; pass --pubkey to check who signed it');
  console.log(report.ok ? `verified: the signed verdict is ${report.verdict ? VERDICT_WORDS[report.verdict] : 'none'}` : 'NOT verified');
  return report.ok ? 0 : 1;
}
