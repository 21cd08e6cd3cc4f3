import "server-only";
import { z } from "zod";
import { defineJobKind } from "@/server/jobs/job-kinds";

/** A `judge` job grades one judge run (`judge_runs`), claimed by the studio's judge worker. */
export const judgeJobKind = defineJobKind({
  kind: "judge",
  payload: z.object({ judgeRunId: z.guid() }),
  claim: { by: "worker" },
});

/** What a judge job that ends with leaves left, or cancelled, says (known before the engine loads). */
export const judgeJobTexts = {
  describeLeft: (unitsLeft: number) => `${unitsLeft} leaves were left ungraded`,
  cancelledReason: "Cancelled; the verdicts stored before stay",
};
