import { useSyncExternalStore } from "react";
import { loadOnce } from "@/lib/load-once";

/**
 * A heavy module (KaTeX, the markdown renderer) in a chunk of its own, loaded when a component
 * that needs it is on screen instead of with the page. `useModule` is null until the module is
 * there, then re-renders its caller with it: it starts the load at once (what the first screen
 * shows, like a formula in a row). `useModuleWhenIdle` starts it once the page has nothing else to
 * do (what may show a moment later, like an explanation's formatting), so that loading and running
 * it does not hold up the page's first answers. A failed load is forgotten (`loadOnce`), so the
 * next component that mounts tries again.
 */
export function lazyModule<T>(importer: () => Promise<T>): {
  load: () => Promise<T>;
  useModule: () => T | null;
  useModuleWhenIdle: () => T | null;
} {
  let loaded: T | null = null;
  let idleLoadAsked = false;
  const waiting = new Set<() => void>();
  const load = loadOnce(async () => {
    loaded = await importer();
    for (const listener of waiting) listener();
    return loaded;
  });
  const loadNow = () => void load().catch(() => undefined);
  const loadWhenIdle = () => {
    if (idleLoadAsked) return;
    idleLoadAsked = true;
    const start = () => {
      idleLoadAsked = false;
      loadNow();
    };
    // At most a second later on a page that is never idle.
    if (typeof requestIdleCallback === "function") requestIdleCallback(start, { timeout: 1_000 });
    else setTimeout(start, 0);
  };
  const subscribeWith = (startLoad: () => void) => (listener: () => void) => {
    waiting.add(listener);
    startLoad();
    return () => {
      waiting.delete(listener);
    };
  };
  const subscribe = subscribeWith(loadNow);
  const subscribeWhenIdle = subscribeWith(loadWhenIdle);
  const current = () => loaded;
  return {
    load,
    useModule: () => useSyncExternalStore(subscribe, current, current),
    useModuleWhenIdle: () => useSyncExternalStore(subscribeWhenIdle, current, current),
  };
}
