"use client";

import { useCallback, useMemo, useState } from "react";

/** Staff's checked submissions; ids no longer listed drop out of the selection. */
export function useSubmissionSelection(listedIds: readonly string[]) {
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const selected = useMemo(() => listedIds.filter((id) => checked.has(id)), [listedIds, checked]);
  const toggle = useCallback((id: string) => {
    setChecked((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  /** Checks every one of `ids`, or unchecks them all when they all are. */
  const toggleAll = useCallback((ids: readonly string[]) => {
    setChecked((prev) => {
      const next = new Set(prev);
      const all = ids.every((id) => prev.has(id));
      for (const id of ids) {
        if (all) next.delete(id);
        else next.add(id);
      }
      return next;
    });
  }, []);
  const clear = useCallback(() => setChecked(new Set()), []);
  return { selected, isChecked: (id: string) => checked.has(id), toggle, toggleAll, clear };
}
