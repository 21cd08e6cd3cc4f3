import "server-only";
import { z } from "zod";
import { JOB_TIMINGS } from "@/lib/jobs/states";

const seconds = (fallback: number) =>
  z.preprocess(
    (v) => (v === "" || v === undefined ? fallback : Number(v)),
    z
      .number()
      .positive()
      .max(24 * 3600),
  );

const schema = z.object({
  JOB_LEASE_S: seconds(JOB_TIMINGS.leaseS),
  JOB_HEARTBEAT_S: seconds(JOB_TIMINGS.heartbeatS),
});

/**
 * The queue's lease and heartbeat, from JOB_LEASE_S and JOB_HEARTBEAT_S (defaults 60 s and 15 s).
 * Tests and the requeue benchmark shorten the lease so a killed runner's job comes back in seconds.
 */
export function queueTimings(): { leaseS: number; heartbeatS: number } {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success)
    throw new Error(
      `Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`,
    );
  const leaseS = Math.round(parsed.data.JOB_LEASE_S);
  // A heartbeat comes well inside the lease, whatever was configured.
  const heartbeatS = Math.max(1, Math.min(Math.round(parsed.data.JOB_HEARTBEAT_S), Math.floor(leaseS / 3)));
  return { leaseS, heartbeatS };
}
