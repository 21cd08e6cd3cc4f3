"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { JOB_KINDS, JOB_STATUSES, type JobKind, type JobStatus } from "@/lib/jobs/states";

export interface JobsFilters {
  statuses: JobStatus[];
  kind: JobKind | null;
  paper: string | null;
}

/** /jobs' filters, kept in the URL (`?status=running,failed&kind=reproduce&paper=…`) so a view can be shared and survives a reload. */
export function useJobsFilters() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = useMemo<JobsFilters>(() => {
    const statuses = (params.get("status") ?? "")
      .split(",")
      .filter((s): s is JobStatus => (JOB_STATUSES as readonly string[]).includes(s));
    const kind = params.get("kind");
    return {
      statuses,
      kind: kind && (JOB_KINDS as readonly string[]).includes(kind) ? (kind as JobKind) : null,
      paper: params.get("paper") || null,
    };
  }, [params]);

  const update = useCallback(
    (next: Partial<JobsFilters>) => {
      const merged = { ...filters, ...next };
      const query = new URLSearchParams();
      if (merged.statuses.length) query.set("status", merged.statuses.join(","));
      if (merged.kind) query.set("kind", merged.kind);
      if (merged.paper) query.set("paper", merged.paper);
      const qs = query.toString();
      router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
    },
    [filters, pathname, router],
  );

  const toggleStatus = useCallback(
    (status: JobStatus) =>
      update({
        statuses: filters.statuses.includes(status)
          ? filters.statuses.filter((s) => s !== status)
          : [...filters.statuses, status],
      }),
    [filters.statuses, update],
  );

  /** The API's query string for these filters. */
  const apiQuery = useMemo(() => {
    const q = new URLSearchParams({ limit: "200" });
    if (filters.statuses.length) q.set("status", filters.statuses.join(","));
    if (filters.kind) q.set("kind", filters.kind);
    if (filters.paper) q.set("paper", filters.paper);
    return q.toString();
  }, [filters]);

  return { filters, update, toggleStatus, apiQuery };
}
