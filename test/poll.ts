/**
 * Reads `read` every `everyMs` until `ok` holds for what it read, and returns that. It has no
 * deadline of its own: the test's timeout is the one bound, as a short deadline here failed tests
 * on a loaded CI machine while the awaited change was merely slow. When the test fails while it
 * waits (its timeout), `what` and the last value read are printed; the polling stops with the test.
 * The bench polls with it too, outside vitest (VITEST unset): there, nothing is registered.
 */
export async function pollUntil<T>(
  what: string,
  read: () => T | Promise<T>,
  ok: (value: T) => boolean,
  everyMs = 50,
): Promise<T> {
  let last: { value: T } | null = null;
  let ended = false;
  let found = false;
  const vitest = process.env.VITEST ? await import("vitest") : null;
  try {
    vitest?.onTestFailed(
      () =>
        void (
          found ||
          console.error(
            `still waiting for ${what}; last read: ${last ? JSON.stringify(last.value)?.slice(0, 2000) : "nothing yet"}`,
          )
        ),
    );
    vitest?.onTestFinished(() => void (ended = true));
  } catch {
    // Called from a hook (beforeAll…): no test to report to; the hook's timeout bounds it.
  }
  for (;;) {
    if (ended) throw new Error(`the test ended while waiting for ${what}`);
    const value = await read();
    if (ok(value)) {
      found = true;
      return value;
    }
    last = { value };
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
