// `npx fleetproof …` runs the command under `npm exec` and a shell. Killing
// npx ends npm and the shell but not the command below them, which keeps its
// server running with no one to stop it. A command run by npx that loses its
// parent therefore treats that as a SIGTERM: it stops what it started and
// exits. Started any other way (`fleetproof serve &` in a CI step), losing the
// parent is how a server is meant to outlive its shell, and nothing happens.

const CHECK_EVERY_MS = 500;

/** Under npx, watches for the parent process going away; the timer never keeps the process alive. */
export function stopWhenOrphaned(env: NodeJS.ProcessEnv = process.env): void {
  // npm sets npm_command for the command it runs; `exec` is npx and npm exec.
  if (env['npm_command'] !== 'exec') return;
  const parent = process.ppid;
  // Started by init or a container's PID 1 on purpose: there is no parent to lose.
  if (parent <= 1) return;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, CHECK_EVERY_MS);
  timer.unref();
}

/**
 * The first SIGINT or SIGTERM from now on: `received` resolves with its name.
 * From then on a later one is ignored, where Node's default would end the
 * command before it has stopped what it started: under npx one signal
 * arrives twice (the terminal's Ctrl-C reaches every process of the job, and
 * the shell's going sets the orphan watch off), and a temporary PostgreSQL
 * data folder or key was left behind. Every stop is bounded (in-flight
 * requests get a grace period, each statement a timeout), so nothing waits
 * on an ignored signal. `stop()` stops listening, for a command that ended
 * without one. Listening from the start means a signal sent the moment a
 * server prints its address is never missed.
 */
export function signalWatch(): { received: Promise<NodeJS.Signals>; stop(): void } {
  let stop = () => {};
  const received = new Promise<NodeJS.Signals>((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      stop();
      const ignore = () => {};
      process.on('SIGINT', ignore);
      process.on('SIGTERM', ignore);
      resolve(signal);
    };
    stop = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  return { received, stop };
}

/**
 * Until the returned function is called, SIGINT and SIGTERM run `cleanup` and
 * then end the process as the signal would (exit 128 + its number).
 */
export function onTermination(cleanup: () => Promise<void>, log: (line: string) => void): () => void {
  const watch = signalWatch();
  void watch.received.then((signal) => {
    log(`fleetproof: ${signal}, stopping what this run started`);
    void cleanup()
      .catch((err: unknown) => log(`fleetproof: cleanup after ${signal} failed: ${(err as Error).message}`))
      .finally(() => process.exit(128 + (signal === 'SIGINT' ? 2 : 15)));
  });
  return watch.stop;
}
