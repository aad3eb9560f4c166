#!/usr/bin/env node
// The package entry point: registers tsx so the TypeScript sources run as they
// are, then hands over to the command dispatcher.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
