/**
 * A load (a script chunk's dynamic import, say) made once and shared by every caller. One that fails
 * is forgotten, so the next caller tries again: a chunk refused during a network blip is not lost
 * for the rest of the page's life.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= load().catch((err: unknown) => {
      pending = null;
      throw err;
    });
    return pending;
  };
}
