// `npx fleetproof certify --store postgres` from the packed package installed
// into an empty folder: the embedded PostgreSQL is a dependency of the
// package and starts there. A file of its own, beside installed-package.test.ts,
// so each stays within a file's time limit on a loaded machine.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CERTIFY_MS, certifyThere, packAndInstall, type Installed } from './installed-package.ts';

let installed: Installed;

before(async () => {
  installed = await packAndInstall();
});

after(async () => {
  await installed?.remove();
});

test(
  'npx fleetproof certify --store postgres qualifies the embedded reference on PostgreSQL',
  { timeout: CERTIFY_MS + 10_000 },
  async () => {
    const output = await certifyThere(installed.app, ['--store', 'postgres']);
    assert.match(output, /starting an embedded PostgreSQL server/);
  },
);
