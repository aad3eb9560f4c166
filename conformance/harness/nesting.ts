// Version admissions nested to a chosen depth for [wire-nesting], built so
// that nesting is the only rule a probe can break: the manifest digest is
// computed over the nested manifest, and the sizes stay below the smallest
// legal limits. The depth lives in an `examples` array of a capability's
// input schema, which the registry digests but does not interpret; the
// version body itself is level 1.
import type { VersionAdmission } from '../../contract/records.ts';
import type { CaseContext } from './context.ts';
import { HarnessError } from './failure.ts';

/** Levels of arrays and objects in a value: a scalar has 0, `[]` has 1. */
export function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let deepest = 0;
  for (const v of Array.isArray(value) ? value : Object.values(value)) deepest = Math.max(deepest, depthOf(v));
  return deepest + 1;
}

/** `levels` arrays, one inside the other. */
function nestedArrays(levels: number): unknown[] {
  let v: unknown[] = [];
  for (let i = 1; i < levels; i++) v = [v];
  return v;
}

/**
 * A new version of `typeId` whose body nests exactly `depth` levels deep
 * (at least as deep as the body's own shape), valid in every other rule.
 */
export function versionNestedTo(ctx: CaseContext, typeId: string, depth: number): VersionAdmission {
  const ids = { version: ctx.ids.version(), capability: ctx.ids.capability(), semver: ctx.ids.semver() };
  const build = (levels: number) =>
    ctx.build.version(
      ids.version,
      typeId,
      [ctx.build.capability(ids.capability, { input_schema: { type: 'object', examples: nestedArrays(levels) } })],
      { version: ids.semver },
    );
  const shallowest = depthOf(build(1));
  // Only if the examples are the deepest point does each array added there add a level to the body.
  if (depthOf(build(2)) !== shallowest + 1 || depth < shallowest)
    throw new HarnessError(`a version body cannot be built ${depth} levels deep: its own shape is ${shallowest} deep elsewhere`);
  const version = build(depth - shallowest + 1);
  if (depthOf(version) !== depth) throw new HarnessError(`built a version body ${depthOf(version)} levels deep, not ${depth}`);
  return version;
}
