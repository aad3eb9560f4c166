// `npm test` includes the type check, so code that does not type-check never
// reaches main even though CI runs only the test command.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

test('the project type-checks (npm run typecheck)', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const result = spawnSync('npm', ['run', '--silent', 'typecheck'], { cwd: root, encoding: 'utf8', timeout: 240_000 });
  assert.equal(result.status, 0, `type errors:\n${result.stdout}${result.stderr}`);
});
