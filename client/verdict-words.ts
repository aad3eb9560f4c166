// The verdict words every command and report uses, on the terminal and on
// the page: one set, so a certification, a conformance run, a property run
// and a load run that agree say the same word. Each harness part decides its
// verdict; these are only its names.
export const VERDICT_WORDS = {
  qualified: 'QUALIFIED',
  'non-conformant': 'NON-CONFORMANT',
  'could-not-judge': 'COULD NOT JUDGE',
  'could-not-run': 'COULD NOT RUN',
} as const;
export type VerdictKey = keyof typeof VERDICT_WORDS;
