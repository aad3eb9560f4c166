// A registry that cannot trust the harness's JWK set is tested with the tokens
// its vendor's command prints, and no --key: what a whole such run shows is
// checked on `certify --token-cmd` (keyless-run.ts). Here: a key given beside
// the command that the target does not trust stops the run, naming the fix.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateSigningKeys, signingKeyFromJwk } from '../../contract/tokens.ts';
import { runConformance } from '../runner/run.ts';
import { startReferenceTarget, type ReferenceTarget } from './reference-target.ts';
import { startTokenService, type TokenService } from './token-command.ts';

let target: ReferenceTarget;
let service: TokenService;

before(async () => {
  target = await startReferenceTarget();
  service = await startTokenService(target.key);
});
after(async () => {
  await service?.close();
  await target?.close();
});

describe('conform with --token-cmd and no --key', () => {
  it('a key the target does not trust, given beside the command, is could not run naming the fix', async () => {
    const stranger = await signingKeyFromJwk((await generateSigningKeys()).privateJwk);
    const outcome = await runConformance({
      config: target.config({ keyFile: '/keys/signing-key.jwk.json', cases: ['operations/health-answers-without-a-token'] }),
      signingKey: stranger,
      auth: { tokenCommand: service.tokenCmd },
      writeReports: false,
    });
    assert.equal(outcome.exitCode, 2);
    assert.match(
      outcome.error!,
      new RegExp(
        `^the target refused a token signed with kid=${stranger.kid} by --key, while it accepts the token command \\(--token-cmd\\): configure it to trust /keys/jwks.json`,
      ),
    );
  });
});
