import "server-only";
import type { Store } from "@/db/client";
import { getEvaluationById } from "@/db/queries/evaluations";
import { getUserWithPaperAccess, type SessionRef } from "@/db/queries/papers";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/uuid";
import { recheckingEventStream } from "@/server/live/rechecking-stream";
import { followAccess } from "@/server/live/rubric-feed";
import { followEvaluation } from "./evaluation-feed";

const ACCESS_ENDED = `event: access-ended\ndata: ${JSON.stringify({ message: "You can no longer see this evaluation (signed out, disabled or no longer staff)" })}\n\n`;

/**
 * The evaluation page's Server-Sent Events: `cell` (`{evaluationId}`) whenever a cell of the
 * evaluation was announced changed (`evaluation:<id>`, from any instance); the page refetches the
 * matrix. Like the job log's stream it re-checks the viewer on every look (an announcement, an
 * access change, every second): once the session is gone or its user is no longer staff, it
 * sends `access-ended` and closes.
 */
export async function evaluationMatrixStream(input: {
  store: Store;
  viewer: SessionRef;
  evaluationId: string;
  signal: AbortSignal;
  databaseUrl?: string;
}): Promise<ReadableStream<Uint8Array>> {
  // A 404 for an evaluation that does not exist, before the stream opens.
  if (!isUuid(input.evaluationId) || !(await getEvaluationById(input.store.db, input.evaluationId))) {
    throw new AppError("not_found", `No evaluation with id "${input.evaluationId}"`);
  }
  let changed = false;
  return recheckingEventStream({
    signal: input.signal,
    follow: (onChange) =>
      Promise.all([
        followEvaluation(
          input.evaluationId,
          () => {
            changed = true;
            onChange();
          },
          { databaseUrl: input.databaseUrl },
        ),
        followAccess(input.viewer.userId, onChange, { databaseUrl: input.databaseUrl }),
      ]),
    check: async (write) => {
      const found = await getUserWithPaperAccess(input.store.db, input.viewer, undefined);
      if (!found?.user.isStaff) {
        write(ACCESS_ENDED);
        return false;
      }
      if (changed) {
        changed = false;
        write(`event: cell\ndata: ${JSON.stringify({ evaluationId: input.evaluationId })}\n\n`);
      }
      return true;
    },
  });
}
