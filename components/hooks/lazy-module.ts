import { useSyncExternalStore } from "react";
import { loadOnce } from "@/lib/load-once";

/**
 * A heavy module (KaTeX, the markdown renderer) in a chunk of its own, loaded when the first
 * component that needs it is on screen instead of with the page. `load` starts the load (a caller
 * that knows it will need the module soon may start it early); `useModule` is null until the module
 * is there, then re-renders its caller with it. A failed load is forgotten (`loadOnce`), so the
 * next component that mounts tries again.
 */
export function lazyModule<T>(importer: () => Promise<T>): { load: () => Promise<T>; useModule: () => T | null } {
  let loaded: T | null = null;
  const waiting = new Set<() => void>();
  const load = loadOnce(async () => {
    loaded = await importer();
    for (const listener of waiting) listener();
    return loaded;
  });
  const subscribe = (listener: () => void) => {
    waiting.add(listener);
    load().catch(() => undefined);
    return () => {
      waiting.delete(listener);
    };
  };
  const current = () => loaded;
  return { load, useModule: () => useSyncExternalStore(subscribe, current, current) };
}
