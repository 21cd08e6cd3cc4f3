import "server-only";

const encoder = new TextEncoder();

/**
 * A Server-Sent Events stream that keeps one view up to date by looking again: at once, whenever
 * something it follows is announced (from any instance), and every `recheckMs` without being told
 * (a lost announcement, a session that expired, a membership removed inside another service's
 * transaction). Looks never overlap; a change heard during one causes one more. `check` writes
 * what changed and answers false to end the stream (it has said why, e.g. `access-ended`); a
 * database failure ends it too, and the browser reconnects and is checked afresh.
 */
export function recheckingEventStream(input: {
  signal: AbortSignal;
  follow(onChange: () => void): Promise<(() => void)[]>;
  check(write: (text: string) => void): Promise<boolean>;
  /** Default 1 s; null: only when told (a test proving that an announcement alone delivers). */
  recheckMs?: number | null;
  heartbeatMs?: number;
}): ReadableStream<Uint8Array> {
  let close = () => {};
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const write = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          // Closed under us: the abort cleans up.
        }
      };
      let looking = false;
      let again = false;
      const look = async () => {
        if (looking) {
          again = true;
          return;
        }
        looking = true;
        try {
          do {
            again = false;
            if (!(await input.check(write))) return close();
          } while (again && !closed);
        } catch {
          close();
        } finally {
          looking = false;
        }
      };
      const stops: (() => void)[] = [];
      const timers: ReturnType<typeof setInterval>[] = [];
      close = () => {
        if (closed) return;
        closed = true;
        for (const stop of stops) stop();
        for (const t of timers) clearInterval(t);
        try {
          controller.close();
        } catch {
          // Already closed.
        }
      };
      input.signal.addEventListener("abort", close, { once: true });
      write("retry: 2000\n\n");
      const onChange = () => void look();
      const followed = await input.follow(onChange);
      stops.push(...followed);
      // Aborted while it started following: close() ran before these existed.
      if (closed) return followed.forEach((stop) => stop());
      if (input.recheckMs !== null) timers.push(setInterval(onChange, input.recheckMs ?? 1_000));
      timers.push(setInterval(() => write(": keep-alive\n\n"), input.heartbeatMs ?? 15_000));
      await look();
    },
    cancel() {
      close();
    },
  });
}
