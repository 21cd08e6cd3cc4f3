"use client";

import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/api/client";
import { JOB_KINDS, JOB_STATUSES, type JobKind } from "@/lib/jobs/states";
import { JobStatusBadge } from "./job-status-badge";
import type { JobRow } from "@/lib/jobs/job-view";
import { JobsTable } from "./jobs-table";
import { useJobsFilters } from "./use-jobs-filters";

/** /jobs: queue depth per kind, filters kept in the URL, and the jobs, refreshed every 2 s while the tab is visible. */
export function JobsPage() {
  const { filters, update, toggleStatus, apiQuery } = useJobsFilters();
  const jobs = useQuery({
    queryKey: ["jobs", apiQuery],
    queryFn: () => fetchJson<{ queued: Record<JobKind, number>; jobs: JobRow[] }>(`/api/jobs?${apiQuery}`),
    refetchInterval: 2_000,
    placeholderData: (previous) => previous,
  });
  const papers = useQuery({
    queryKey: ["papers"],
    queryFn: () => fetchJson<{ papers: { id: string; title: string }[] }>("/api/papers").then((r) => r.papers),
  });

  return (
    <section className="space-y-4" data-testid="jobs-page">
      <header className="flex flex-wrap items-end gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Jobs</h1>
          <p className="mt-1 text-sm text-zinc-600">
            Reproductions and judge runs: queued, running on a runner, and how they ended.
          </p>
        </div>
        <dl className="ml-auto flex gap-3" data-testid="queue-depth">
          {JOB_KINDS.map((kind) => (
            <div key={kind} className="rounded-lg border border-zinc-200 bg-white px-4 py-2 text-center">
              <dd className="text-xl font-semibold tabular-nums" data-testid={`queued-${kind}`}>
                {jobs.data?.queued[kind] ?? "–"}
              </dd>
              <dt className="text-xs text-zinc-500">{kind} queued</dt>
            </div>
          ))}
        </dl>
      </header>

      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Filters">
        {JOB_STATUSES.map((status) => {
          const on = filters.statuses.includes(status);
          return (
            <button
              key={status}
              type="button"
              aria-pressed={on}
              onClick={() => toggleStatus(status)}
              className={`rounded-full p-0.5 ring-2 ring-offset-1 ${on ? "ring-indigo-500" : "opacity-60 ring-transparent hover:opacity-100"}`}
              data-testid={`filter-${status}`}
            >
              <JobStatusBadge status={status} />
            </button>
          );
        })}
        <select
          value={filters.kind ?? ""}
          onChange={(e) => update({ kind: (e.target.value || null) as JobKind | null })}
          aria-label="Kind"
          className="ml-2 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm"
        >
          <option value="">every kind</option>
          {JOB_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        <select
          value={filters.paper ?? ""}
          onChange={(e) => update({ paper: e.target.value || null })}
          aria-label="Paper"
          className="max-w-[16rem] rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm"
        >
          <option value="">every paper</option>
          {papers.data?.map((p) => (
            <option key={p.id} value={p.id}>
              {p.title}
            </option>
          ))}
        </select>
        {(filters.statuses.length > 0 || filters.kind || filters.paper) && (
          <button
            type="button"
            onClick={() => update({ statuses: [], kind: null, paper: null })}
            className="text-sm text-indigo-700 hover:underline"
          >
            Clear filters
          </button>
        )}
      </div>

      {jobs.isError && (
        <p role="alert" className="text-sm text-red-700">
          {jobs.error.message}
        </p>
      )}
      {jobs.isPending && <div className="h-32 animate-pulse rounded-lg bg-zinc-100" />}
      {jobs.data && jobs.data.jobs.length === 0 && (
        <p
          className="rounded-lg border border-dashed border-zinc-300 p-8 text-center text-sm text-zinc-500"
          data-testid="no-jobs"
        >
          No jobs
          {filters.statuses.length || filters.kind || filters.paper
            ? " match these filters"
            : " yet: upload a submission with Reproduce on a paper page"}
          .
        </p>
      )}
      {jobs.data && jobs.data.jobs.length > 0 && <JobsTable jobs={jobs.data.jobs} />}
    </section>
  );
}
