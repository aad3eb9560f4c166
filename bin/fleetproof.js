#!/usr/bin/env node
// The package entry point. In the repository the sources are TypeScript, run
// as they are through tsx. In a compiled tree (npm test runs its files from
// one) each module's JavaScript sits beside it and needs no loader.
import { existsSync } from 'node:fs';

const compiled = new URL('../cli/main.js', import.meta.url);
/** @type {(argv: string[]) => Promise<number>} */
let main;
if (existsSync(compiled)) ({ main } = await import(compiled.href));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
