/**
 * Group commit: items added while a write is in flight wait and are written together by the next
 * write, so many concurrent producers cost one write per round instead of one each. `add` settles
 * when its item's write does (rejected with that write's error). Writes never overlap, and items
 * are written in the order they were added.
 *
 * `lingerMs`: a batch is written no sooner than this long after its first item arrived, so items
 * that trickle in (verdicts answered one by one) share a write instead of each starting one when
 * the previous write was quick. 0 (the default) writes as soon as no write is in flight.
 */
export function groupCommit<T>(
  write: (items: T[]) => Promise<void>,
  opts: { lingerMs?: number } = {},
): { add(item: T): Promise<void> } {
  const lingerMs = opts.lingerMs ?? 0;
  let pending: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];
  /** When the first item of `pending` arrived. */
  let openedAt = 0;
  let writing = false;

  async function drain(): Promise<void> {
    writing = true;
    try {
      while (pending.length > 0) {
        const wait = openedAt + lingerMs - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const batch = pending;
        pending = [];
        try {
          await write(batch.map((p) => p.item));
          for (const p of batch) p.resolve();
        } catch (err) {
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      writing = false;
    }
  }

  return {
    add(item: T): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        if (pending.length === 0) openedAt = Date.now();
        pending.push({ item, resolve, reject });
        if (!writing) void drain();
      });
    },
  };
}
