import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ClaimedJob } from "@/lib/runner/protocol";

/**
 * A claim as the studio answers it (lib/runner/protocol.ts), for the runner's tests: a reproduction
 * of a fresh job under a fresh lease, its job token shaped as the studio's, with the settings and
 * lease timings a test overrides.
 */
export function claimedJobFixture(
  overrides: {
    settings?: Partial<ClaimedJob["job"]["settings"]>;
    lease?: Partial<Pick<ClaimedJob["lease"], "expiresAt" | "leaseS" | "heartbeatS">>;
  } = {},
): ClaimedJob {
  const jobId = randomUUID();
  const leaseId = randomUUID();
  return {
    job: {
      id: jobId,
      kind: "reproduce",
      attempt: 1,
      submissionId: randomUUID(),
      paperId: "paper",
      gpuIndices: [],
      settings: {
        timeoutS: 3600,
        gpus: 0,
        network: false,
        secrets: { HF_TOKEN: "hf_topsecret" },
        salvageRetryBelowS: 0,
        maxOutputFileBytes: 1024 * 1024,
        ...overrides.settings,
      },
    },
    lease: { id: leaseId, expiresAt: new Date().toISOString(), leaseS: 60, heartbeatS: 15, ...overrides.lease },
    jobToken: `rst_job_${jobId}.${leaseId}.sig`,
  };
}

/** A stand-in studio's HTTP server on a free loopback port: its URL, and `close` that also drops open long polls. */
export async function listenStandIn(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
