import { useSyncExternalStore } from "react";

const noSubscribe = () => () => {};

/** This studio's origin as the browser reached it (`https://rubrics.example.org`), for command lines to copy; a placeholder while rendered on the server. */
export function useOrigin(): string {
  return useSyncExternalStore(
    noSubscribe,
    () => window.location.origin,
    () => "<studio-url>",
  );
}
