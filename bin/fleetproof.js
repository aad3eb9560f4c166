#!/usr/bin/env node
// The package entry point. An installed package runs it from its compiled
// tree, dist/ (scripts/build.js), where each module's JavaScript sits beside
// it; so does npm test's compiled tree. In a clone it runs the TypeScript
// sources as they are, through tsx (a development dependency).
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
