import "server-only";
import { lazyJobHandler, registerJobKind } from "@/server/jobs/job-kinds";
import { subscribeJobEvents } from "@/server/jobs/job-events";
import { registerQueueUpkeep } from "@/server/jobs/queue-upkeep";
import { announceJobEvent } from "@/server/live/job-feed";
import { judgeJobKind, judgeJobTexts } from "@/server/judge/worker/judge-job-kind";
import { reproduceJobKind } from "@/server/reproductions/reproduce-job-kind";

/**
 * The one place the job queue (`server/jobs`, which knows no feature) meets its features: the job
 * kinds it runs and who hears of what happens to jobs. Every process that touches the queue calls
 * it once at start-up (the studio's `startStudio`, `npm run worker`, the evaluation CLIs, the test
 * databases); a new kind is one `registerJobKind` here plus its subscribers. Idempotent.
 *
 * The judge engine and the evaluation pipeline load on first use (dynamic imports): registering
 * stays cheap for the many processes (every database test) that never grade or advance a cell.
 */
export function registerJobPlatform(): void {
  registerJobKind(reproduceJobKind);
  registerJobKind(judgeJobKind, {
    handler: lazyJobHandler(
      judgeJobTexts,
      async () => (await import("@/server/judge/worker/judge-job")).judgeJobHandler,
    ),
  });
  // Followers first (pages, a runner's long polls), then what moves on with the job.
  subscribeJobEvents("live job feed", announceJobEvent);
  // The evaluation pipeline: a cell moves on with its job (and, once graded, draws its review sample).
  subscribeJobEvents("evaluation pipeline", async (store, event) =>
    (await import("@/server/evaluations/pipeline/job-events")).advanceCellOnJobEvent(store, event),
  );
  // …and its catch-up on the queue's timer: cells whose event was missed take their step.
  registerQueueUpkeep("advancing evaluation cells", async (store) =>
    (await import("@/server/evaluations/pipeline/sweep-cells")).sweepEvaluationCells(store),
  );
}
