import "server-only";
import type { Store } from "@/db/client";
import { listRunningJobsByRunner } from "@/db/queries/jobs";
import { listRunners } from "@/db/queries/runners";
import type { RunnerCapabilities } from "@/lib/runner/protocol";
import { queueTimings } from "@/server/jobs/queue-config";

export interface RunnerRow {
  id: string;
  name: string;
  tokenName: string;
  tokenRevoked: boolean;
  capabilities: RunnerCapabilities;
  registeredAt: string;
  lastSeenAt: string;
  /** Heard from within `runnerOnlineWithinS()`, under a token not revoked. */
  online: boolean;
  running: {
    jobId: string;
    paperId: string;
    submissionId: string | null;
    startedAt: string | null;
    gpuIndices: number[];
  }[];
}

/** A runner counts as online when heard from within a lease: it long-polls every ≤ 30 s and heartbeats every job. */
export function runnerOnlineWithinS(): number {
  return Math.max(queueTimings().leaseS, 45);
}

/** /runners: each registered runner, what it has, when it was last heard from and what it runs now. */
export async function listRunnersForStaff(store: Store): Promise<RunnerRow[]> {
  const runners = await listRunners(store.db);
  const running = await listRunningJobsByRunner(
    store.db,
    runners.map((r) => r.id),
  );
  const onlineWithinMs = runnerOnlineWithinS() * 1000;
  const now = Date.now();
  return runners.map((r) => ({
    id: r.id,
    name: r.name,
    tokenName: r.tokenName,
    tokenRevoked: r.tokenRevoked,
    capabilities: r.capabilities,
    registeredAt: r.registeredAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    online: !r.tokenRevoked && now - r.lastSeenAt.getTime() < onlineWithinMs,
    running: running
      .filter((j) => j.runnerId === r.id)
      .map((j) => ({
        jobId: j.id,
        paperId: j.paperId,
        submissionId: j.submissionId,
        startedAt: j.startedAt?.toISOString() ?? null,
        gpuIndices: j.gpuIndices,
      })),
  }));
}
