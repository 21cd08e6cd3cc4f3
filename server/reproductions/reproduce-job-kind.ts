import "server-only";
import { z } from "zod";
import { defineJobKind } from "@/server/jobs/job-kinds";

/**
 * A `reproduce` job runs a submission's reproduce.sh on a runner (its submission and paper are the
 * job's own columns; network and secrets are read at claim). Runners claim it over HTTP.
 */
export const reproduceJobKind = defineJobKind({
  kind: "reproduce",
  payload: z.object({}),
  claim: { by: "runner" },
});
