import { readServerEnv } from "@/lib/env";
import { evaluationMatrixStream } from "@/server/evaluations/pipeline/matrix-stream";
import { eventStreamResponse } from "@/server/http/event-stream-response";
import { apiRoute, requireSession } from "@/server/http/route";

type Params = { evaluationId: string };

/** Server-Sent Events (staff): `cell` whenever a cell of the evaluation changed; the page refetches the matrix. */
export const GET = apiRoute<Params>({ staff: true }, async ({ signal, store, params, user, sessionId }) => {
  return eventStreamResponse(
    await evaluationMatrixStream({
      store,
      viewer: { userId: user.id, sessionId: requireSession(sessionId) },
      evaluationId: params.evaluationId,
      signal,
      databaseUrl: readServerEnv().DATABASE_URL,
    }),
  );
});
