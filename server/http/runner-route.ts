import "server-only";
import type { NextRequest } from "next/server";
import { getDb, type Store } from "@/db/client";
import type { Logger } from "@/server/observability/log";
import { requestStopLink } from "@/server/lifecycle/stopping";
import { jsonAnswer } from "./json-answer";
import { errorResponse, observeRequest, withStopSignal } from "./route";

export interface RunnerRouteContext<P> {
  req: NextRequest;
  params: P;
  /** Aborted when the request ends or the studio begins to stop: what a long poll ends on. */
  signal: AbortSignal;
  store: Store;
  /** The studio's logger with this request's id bound. */
  log: Logger;
}

/**
 * The wrapper of the runner protocol's routes (app/api/runner/**): they answer machines holding a
 * runner or job token, never a browser session, so there is no cookie to resolve and no origin to
 * check; each handler authenticates its token first (server/runners/runner-tokens.ts,
 * server/runners/job-lease.ts). Errors take the one shape of `apiRoute`, and requests are logged and
 * counted as its are (`observeRequest`).
 */
export function runnerRoute<P extends Record<string, string>>(
  handler: (ctx: RunnerRouteContext<P>) => Promise<Response | object | null>,
) {
  return (req: NextRequest, { params }: { params: Promise<P> }): Promise<Response> =>
    observeRequest(req, params, async (requestLog) => {
      const stopLink = requestStopLink(req.signal);
      try {
        const { db, kind } = await getDb();
        const ctx = withStopSignal<RunnerRouteContext<P>>(
          { req, params: await params, store: { db, kind }, log: requestLog },
          stopLink,
        );
        const result = await handler(ctx);
        if (result === null) return stopLink.settle(new Response(null, { status: 204 }));
        return stopLink.settle(result instanceof Response ? result : jsonAnswer(result));
      } catch (err) {
        return stopLink.settle(errorResponse(err, requestLog));
      }
    });
}
