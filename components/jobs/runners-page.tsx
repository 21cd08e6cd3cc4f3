"use client";

import { useOrigin } from "@/components/hooks/use-origin";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { fetchJson } from "@/components/api/client";
import { useNow } from "@/components/hooks/use-now";
import { TokensPanel } from "@/components/tokens/tokens-panel";
import { formatBytes } from "@/lib/bytes";
import { describeGpus, formatAgo, jobElapsedS } from "@/lib/jobs/describe";
import { formatDurationS } from "@/lib/jobs/duration";
import type { RunnerCapabilities } from "@/lib/runner/protocol";

/** A row of `GET /api/runners` (server/runners/list-runners.ts RunnerRow). */
interface RunnerRowView {
  id: string;
  name: string;
  tokenName: string;
  tokenRevoked: boolean;
  capabilities: RunnerCapabilities;
  lastSeenAt: string;
  online: boolean;
  running: {
    jobId: string;
    paperId: string;
    submissionId: string | null;
    startedAt: string | null;
    gpuIndices: number[];
  }[];
}

/** /runners: the machines that run reproductions, what they have and run now, and the tokens they register with. */
export function RunnersPage() {
  const origin = useOrigin();
  const now = useNow(1_000);
  const runners = useQuery({
    queryKey: ["runners"],
    queryFn: () => fetchJson<{ runners: RunnerRowView[] }>("/api/runners").then((r) => r.runners),
    refetchInterval: 5_000,
  });

  return (
    <div className="space-y-8" data-testid="runners-page">
      <section className="space-y-3">
        <h1 className="text-2xl font-semibold">Runners</h1>
        {runners.isError && <p className="text-sm text-red-700">{runners.error.message}</p>}
        {runners.data?.length === 0 && (
          <p className="text-sm text-zinc-500">No runner has registered yet. Create a token below and start one.</p>
        )}
        {runners.data && runners.data.length > 0 && (
          <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
            <table className="w-full text-left text-sm" data-testid="runners-table">
              <thead className="border-b border-zinc-200 bg-zinc-50 text-xs uppercase tracking-wide text-zinc-500">
                <tr>
                  {["Runner", "Backend", "GPUs", "CPUs", "Memory", "Jobs", "Last seen", "Running now"].map((h) => (
                    <th key={h} className="whitespace-nowrap px-3 py-2 font-medium">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100">
                {runners.data.map((r) => (
                  <tr key={r.id} data-testid="runner-row" className={r.online ? "" : "text-zinc-400"}>
                    <td className="whitespace-nowrap px-3 py-2">
                      <span
                        className={`mr-2 inline-block size-2 rounded-full ${r.online ? "bg-emerald-500" : "bg-zinc-300"}`}
                        aria-label={r.online ? "online" : "offline"}
                      />
                      <span className="font-medium">{r.name}</span>
                      <span className="ml-1.5 text-xs text-zinc-400">
                        {r.tokenRevoked ? "token revoked" : r.tokenName}
                      </span>
                    </td>
                    <td className="px-3 py-2">{r.capabilities.backend}</td>
                    <td className="px-3 py-2">{describeGpus(r.capabilities.gpus)}</td>
                    <td className="px-3 py-2 tabular-nums">{r.capabilities.cpus}</td>
                    <td className="whitespace-nowrap px-3 py-2 tabular-nums">
                      {formatBytes(r.capabilities.memoryBytes)}
                    </td>
                    <td className="px-3 py-2 tabular-nums">
                      {r.running.length}/{r.capabilities.maxJobs}
                    </td>
                    <td className="whitespace-nowrap px-3 py-2 tabular-nums">{formatAgo(r.lastSeenAt, now)}</td>
                    <td className="px-3 py-2">
                      {r.running.length === 0
                        ? "—"
                        : r.running.map((j) => {
                            const elapsed = jobElapsedS(
                              { status: "running", startedAt: j.startedAt, finishedAt: null },
                              now,
                            );
                            const label = `${j.paperId}${j.gpuIndices.length ? ` · GPU ${j.gpuIndices.join(",")}` : ""}${elapsed === null ? "" : ` · ${formatDurationS(elapsed)}`}`;
                            return (
                              <div key={j.jobId} className="whitespace-nowrap">
                                {j.submissionId ? (
                                  <Link
                                    href={`/submissions/${j.submissionId}`}
                                    className="text-indigo-700 hover:underline"
                                  >
                                    {label}
                                  </Link>
                                ) : (
                                  label
                                )}
                              </div>
                            );
                          })}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="text-sm text-zinc-600">
          History: every job with its runner is on{" "}
          <Link href="/jobs" className="text-indigo-700 hover:underline">
            Jobs
          </Link>
          .
        </p>
      </section>

      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Runner tokens</h2>
        <p className="max-w-3xl text-sm text-zinc-600">
          A runner registers with a token and then only ever sees the job it holds; it never gets database credentials.
          Start one on a GPU machine, with the token in the environment (on the command line,{" "}
          <code className="font-mono">ps</code> shows it to every user):
        </p>
        <pre
          className="overflow-x-auto rounded-md bg-zinc-900 px-3 py-2 font-mono text-xs text-zinc-100"
          data-testid="runner-snippet"
        >
          RUNNER_TOKEN=&lt;token&gt; npm run runner -- --url {origin}
        </pre>
        <TokensPanel
          url="/api/runners/tokens"
          what="runner token"
          namePlaceholder="gpu-host-3"
          usage={(token) => `RUNNER_TOKEN=${token} npm run runner -- --url ${origin}`}
        />
      </section>
    </div>
  );
}
