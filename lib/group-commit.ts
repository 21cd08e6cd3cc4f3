/**
 * Group commit: items added while a write is in flight wait and are written together by the next
 * write, so many concurrent producers cost one write per round instead of one each. `add` settles
 * when its item's write does (rejected with that write's error). Writes never overlap, and items
 * are written in the order they were added.
 */
export function groupCommit<T>(write: (items: T[]) => Promise<void>): { add(item: T): Promise<void> } {
  let pending: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];
  let writing = false;

  async function drain(): Promise<void> {
    writing = true;
    try {
      while (pending.length > 0) {
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
        pending.push({ item, resolve, reject });
        if (!writing) void drain();
      });
    },
  };
}
