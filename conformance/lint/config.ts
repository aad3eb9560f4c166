// The lint's configuration: the clauses no black-box case can test, each
// with the reason. Keep it short; anything testable over HTTP belongs in a
// case, and the lint refuses an exemption for a clause that has one.

export const EXEMPT_CLAUSES: Readonly<Record<string, string>> = {
  'failure-storage':
    "needs the registry's storage to fail mid-request, which a client cannot cause; the reference proves it with injected storage faults (reference/http/test, the store behaviour suite)",
  'failure-overload':
    "needs the registry's storage saturated, which a conformance case cannot cause without a load of its own; the reference proves it with its bounded connection queue (reference/store/postgres/test/postgres-connection-queue.test.ts)",
  'failure-indeterminate':
    'needs a lost commit acknowledgement, which a client cannot cause; the reference proves it by terminating its PostgreSQL backends (reference/store/postgres), and the convergence of retries is what the settle-idempotent and pinned-identical cases check',
};

/** Cases are short by design (test262's median is under 1 KB); longer files hide more than one behaviour. */
export const MAX_CASE_LINES = 100;

export const MAX_DESCRIPTION_LENGTH = 100;
