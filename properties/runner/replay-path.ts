// The path that replays one counterexample: fast-check's counterexample path
// and, for command sequences, fast-check's replay path of which commands ran
// (without it a shrunk sequence cannot be rebuilt). One string, so that
// `--seed S --path P` alone replays a failure: "<path>" or "<path>@<replayPath>".

export interface ReplayPath {
  path: string;
  commands?: string;
}

export function formatReplayPath(p: ReplayPath): string {
  return p.commands ? `${p.path}@${p.commands}` : p.path;
}

export function parseReplayPath(text: string): ReplayPath {
  const at = text.indexOf('@');
  const path = at === -1 ? text : text.slice(0, at);
  if (!/^[0-9]+(:[0-9]+)*$/.test(path))
    throw new RangeError(
      `a path is fast-check's counterexample path such as 12:3:0, optionally followed by @ and a replay path; not ${text}`,
    );
  return at === -1 ? { path } : { path, commands: text.slice(at + 1) };
}
