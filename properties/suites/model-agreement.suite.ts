// Agreement with the sequential model: every command, every target, the
// registry's whole observable state compared with the model after each step.
// The other suites are this one with a command mix aimed at one property.
import { EVERY_COMMAND } from '../model/commands.ts';
import { modelSuite } from './model-suite.ts';

export const modelAgreementSuite = modelSuite({
  name: 'model-agreement',
  property: 'model-agreement',
  summary: 'every command, compared with the sequential model of spec.md after each step',
  mix: EVERY_COMMAND,
  maxCommands: 40,
  defaultRuns: { memory: 200, postgres: 12, http: 20 },
});
