// Pauses for race hooks: one turn of the event loop, as an `await` between a
// check and its write gives, or a fixed time, as a storage round trip does.

export const oneTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export const pauseMs = (ms: number) => (): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
