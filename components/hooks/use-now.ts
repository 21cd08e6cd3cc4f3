import { useEffect, useState } from "react";

/** Re-renders every `ms` so that relative times and elapsed clocks stay true; `ms` null stops the clock. */
export function useNow(ms: number | null = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (ms === null) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}
