// Reading the flags that bring a vendor's own authentication (flags/shared.ts,
// AUTH_FLAGS), shared by every command that talks to a target; the credential
// sources behind them live in the client kit's transport, so every suite's
// requests carry them.
import { parseHeader, splitCommand, type CredentialChoice } from '../client/credential-sources.ts';
import { UsageError } from './args.ts';

/**
 * The run's choice, checked before anything runs: a malformed header or command is a usage error, and so is
 * an Authorization header beside --key or --token-cmd, which would replace the token of every caller they speak
 * as, so that the cases for roles and tenants all speak as one and fail a registry that is right.
 */
export function authChoice(values: {
  'token-cmd'?: string | undefined;
  header?: string[] | undefined;
  key?: string | undefined;
}): CredentialChoice {
  if (values['token-cmd'] !== undefined) splitCommand(values['token-cmd']);
  const names = (values.header ?? []).map((h) => parseHeader(h)[0]);
  const tokens = values['token-cmd'] !== undefined ? '--token-cmd' : values.key !== undefined ? '--key' : null;
  if (tokens && names.includes('authorization')) {
    throw new UsageError(
      `--header Authorization would replace every token ${tokens} gives, so every request would speak as one caller: leave the Authorization header out (other headers, such as a gateway's key, may stay)`,
    );
  }
  return { tokenCommand: values['token-cmd'], headers: values.header ?? [] };
}
