// A read by key as storage with a case-insensitive collation answers it: a
// key that finds nothing is tried again in lower case, the form the
// harness's ids are stored in, so a key in another case reads the record.

export function foldedRead<T>(read: (key: string) => Promise<T | null>): (key: string) => Promise<T | null> {
  return async (key) => (await read(key)) ?? (key === key.toLowerCase() ? null : read(key.toLowerCase()));
}
