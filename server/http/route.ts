import "server-only";
import { after, type NextRequest } from "next/server";
import { ZodError } from "zod";
import { getDb, type Store } from "@/db/client";
import { getUserWithPaperAccess } from "@/db/queries/papers";
import type { Paper, User } from "@/db/schema";
import { isMetricsScrapeToken } from "@/server/auth/metrics-token";
import { answeringWith, type DeferToAnswer } from "@/server/live/after-answer";
import { recordHttpRequest } from "@/server/observability/http-latency";
import { log, type Logger } from "@/server/observability/log";
import { getRequestSession } from "@/server/auth/session";
import { bearerToken } from "@/server/runners/runner-tokens";
import { accessByApiToken, isApiToken } from "@/server/auth/api-tokens";
import { canAccessPaper, effectiveRole, type EffectiveRole, type PaperAccess } from "@/lib/auth/access";
import { AppError } from "@/lib/errors";
import { unstorableText } from "@/lib/text";
import { OperationError } from "@/lib/rubric/operations";
import { requestIdOf, routePattern } from "./request-log";
import { assertSameOrigin } from "./same-origin";
import { badRequestOf } from "./zod-details";
import { jsonAnswer } from "./json-answer";
import { isStopping, requestStopLink, type RequestStopLink } from "@/server/lifecycle/stopping";

interface RouteOptions {
  /** Global staff only (creating papers, bulk import). */
  staff?: boolean;
  /** Resolve `params.paperId` and require this access to it. */
  paper?: PaperAccess;
}

/**
 * A route anyone may call, signed in or not (the public leaderboard): the user is resolved when
 * there is a session, never required. It cannot be combined with `staff` or `paper`.
 */
interface PublicRouteOptions {
  public: true;
}

export interface RouteContext<P> {
  req: NextRequest;
  params: P;
  /**
   * Aborted when the request ends or the studio begins to stop (`requestStopLink`): what a stream or
   * a long poll ends on, so a stopping studio is not kept waiting for it.
   */
  signal: AbortSignal;
  /** The database, for the services the handler calls. */
  store: Store;
  user: User;
  /**
   * The caller's session (its `user_sessions` row): a stream re-checks it, sign-out ends it. Null
   * for a request made with a personal API token (`requireSession` refuses those where a browser
   * session is needed).
   */
  sessionId: string | null;
  /** The studio's logger with this request's id bound (`requestId`). */
  log: Logger;
}

/**
 * A route for staff, or for a monitoring system that sends the scrape token `METRICS_TOKEN`
 * (Bearer) instead of a user's credentials: `user` is null for the scraper.
 */
interface ScrapeRouteOptions {
  staffOrScrapeToken: true;
}

/** A public route's context: `user` is null for a signed-out visitor. */
export interface PublicRouteContext<P> extends Omit<RouteContext<P>, "user" | "sessionId"> {
  user: User | null;
}

export interface PaperRouteContext<P> extends RouteContext<P> {
  paper: Paper;
  role: Exclude<EffectiveRole, null>;
}

type Handler<C> = (ctx: C) => Promise<Response | object>;

/**
 * The one wrapper every API route goes through: it resolves the session, the paper and the role
 * before the handler reads or writes anything, and turns errors into `{ error: { code, message,
 * details } }` with a 4xx for anything the caller can fix. Each request gets an id (a sane incoming
 * `x-request-id`, else a new one; sent back in the same header), one log line (method, route
 * pattern, status, duration; never a header, a token or a body) and an observation in the
 * `http_request_duration_seconds` histogram of GET /api/metrics.
 */
export function apiRoute<P extends Record<string, string>>(
  opts: PublicRouteOptions,
  handler: Handler<PublicRouteContext<P>>,
): (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>;
export function apiRoute<P extends Record<string, string>>(
  opts: ScrapeRouteOptions,
  handler: Handler<PublicRouteContext<P>>,
): (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>;
export function apiRoute<P extends Record<string, string>>(
  opts: RouteOptions & { paper: PaperAccess },
  handler: Handler<PaperRouteContext<P>>,
): (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>;
export function apiRoute<P extends Record<string, string>>(
  opts: RouteOptions,
  handler: Handler<RouteContext<P>>,
): (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>;
export function apiRoute<P extends Record<string, string>>(
  opts: RouteOptions | PublicRouteOptions | ScrapeRouteOptions,
  handler: Handler<never>,
) {
  // Inside the handler, `afterAnswer` (live announcements) waits for the answer to be sent.
  return (req: NextRequest, { params }: { params: Promise<P> }): Promise<Response> =>
    observeRequest(req, params, (requestLog) => answeringWith(deferToAnswer, () => handle(req, params, requestLog)));

  async function handle(req: NextRequest, params: Promise<P>, requestLog: Logger): Promise<Response> {
    const stopLink = requestStopLink(req.signal);
    const answer = (result: Response | object) =>
      stopLink.settle(result instanceof Response ? result : jsonAnswer(result));
    try {
      // A personal API token (Authorization: Bearer rst_user_…) stands for its user; the cookie is then
      // not read. A browser never adds that header to a cross-site request (it would need a CORS
      // preflight, which the studio never grants), so only cookie requests need the origin check.
      const token = bearerToken(req);
      if (token === null) assertSameOrigin(req);
      const session = token === null ? await getRequestSession(req) : null;
      const { db, kind } = await getDb();
      const store: Store = { db, kind };
      const resolved = await params;
      const resolveAccess = async (paperId: string | undefined) => {
        if (token !== null) {
          if (!isApiToken(token))
            throw new AppError("unauthorized", "Send a personal API token (Authorization: Bearer rst_user_…)");
          const byToken = await accessByApiToken(db, token, paperId);
          if (!byToken)
            throw new AppError("unauthorized", "This API token is unknown or was revoked, or its user is disabled");
          return { ...byToken, sessionId: null };
        }
        const bySession = session ? await getUserWithPaperAccess(db, session, paperId) : null;
        return bySession && session ? { ...bySession, sessionId: session.sessionId } : null;
      };
      if ("public" in opts) {
        const visitor = await resolveAccess(undefined);
        const ctx = withStopSignal<PublicRouteContext<P>>(
          { req, params: resolved, store, user: visitor?.user ?? null, log: requestLog },
          stopLink,
        );
        return answer(await (handler as Handler<typeof ctx>)(ctx));
      }
      if ("staffOrScrapeToken" in opts && token !== null && isMetricsScrapeToken(token)) {
        const ctx = withStopSignal<PublicRouteContext<P>>(
          { req, params: resolved, store, user: null, log: requestLog },
          stopLink,
        );
        return answer(await (handler as Handler<typeof ctx>)(ctx));
      }
      const { staff, paper: paperAccess } = "staffOrScrapeToken" in opts ? { staff: true, paper: undefined } : opts;
      // A path segment the database cannot store (a NUL, a lone surrogate) names nothing: it never
      // reaches a query (PostgreSQL refuses it with an error, a 500), and the answer is an unknown id's.
      const unstorableParam = Object.entries(resolved ?? {}).find(
        ([, value]) => unstorableText(String(value)) !== null,
      )?.[0];
      const paperId = paperAccess && !unstorableParam ? resolved.paperId : undefined;
      // One query: the session (or token) is live (not signed out, revoked, expired; user not disabled), the user, the paper, the role.
      const access = await resolveAccess(paperId);
      if (!access) throw new AppError("unauthorized", "Sign in to do this");
      const { user } = access;
      if (staff && !user.isStaff) throw new AppError("forbidden", "Only staff can do this");
      if (unstorableParam) throw new AppError("not_found", `No such ${unstorableParam}`);
      let onPaper: Pick<PaperRouteContext<P>, "paper" | "role"> | null = null;
      if (paperAccess) {
        const role = effectiveRole(user.isStaff, access.membership);
        // A non-member learns nothing, not even whether the paper exists.
        if (!role) throw new AppError("forbidden", "You are not a member of this paper");
        if (!canAccessPaper(role, paperAccess)) {
          throw new AppError("forbidden", `Your role on this paper (${role}) cannot ${describeAccess(paperAccess)}`);
        }
        if (!access.paper) throw new AppError("not_found", `No paper with id "${paperId}"`);
        onPaper = { paper: access.paper, role };
      }
      const ctx = withStopSignal<RouteContext<P> | PaperRouteContext<P>>(
        { req, params: resolved, store, user, sessionId: access.sessionId, log: requestLog, ...onPaper },
        stopLink,
      );
      return answer(await (handler as Handler<typeof ctx>)(ctx));
    } catch (err) {
      return stopLink.settle(errorResponse(err, requestLog));
    }
  }
}

/** Next.js's `after`; outside its request scope (a test calling a handler directly) the task runs now. */
const deferToAnswer: DeferToAnswer = (task) => {
  try {
    after(task);
  } catch {
    void task().catch((err) => log.warn({ err }, "a task after the answer failed"));
  }
};

/**
 * What both wrappers (apiRoute, runnerRoute) do around a request: its id and logger, then its
 * answer timed (Server-Timing), logged and counted in the latency histogram.
 */
export async function observeRequest<P>(
  req: NextRequest,
  params: Promise<P>,
  answer: (requestLog: Logger) => Promise<Response>,
): Promise<Response> {
  const started = performance.now();
  const requestId = requestIdOf(req.headers.get("x-request-id"));
  const requestLog = log.child({ requestId });
  const response = await answer(requestLog);
  const ms = performance.now() - started;
  // Server-Timing: the handler's own time, visible in the browser's network panel and benchmarks.
  response.headers.set("server-timing", `app;dur=${ms.toFixed(1)}`);
  response.headers.set("x-request-id", requestId);
  // A stopping studio waits for its connections to close: a kept-alive one would carry the next
  // request (a runner's next claim) to a server that is going away.
  if (isStopping()) response.headers.set("connection", "close");
  const route = routePattern(
    req.nextUrl.pathname,
    (await Promise.resolve(params).catch(() => undefined)) as Record<string, string | string[]> | undefined,
  );
  recordHttpRequest(route, req.method, response.status, ms / 1000);
  requestLog.info({ method: req.method, route, status: response.status, durationMs: Number(ms.toFixed(1)) }, "request");
  return response;
}

/** The request's browser session; a 403 for a request made with an API token (a live stream or a password change needs a session). */
export function requireSession(sessionId: string | null): string {
  if (sessionId === null) throw new AppError("forbidden", "This needs a signed-in browser session, not an API token");
  return sessionId;
}

function describeAccess(access: PaperAccess): string {
  return { view: "see it", "edit-rubric": "edit its rubric", manage: "manage the paper" }[access];
}

/** The error's answer; an unexpected one (a 500) is logged, with its stack, on `logger`. */
export function errorResponse(err: unknown, logger: Logger = log): Response {
  if (err instanceof AppError) {
    return jsonAnswer(
      { error: { code: err.code, message: err.message, details: err.details } },
      {
        status: err.status,
        headers:
          err.retryAfterS === undefined
            ? undefined
            : { "retry-after": String(Math.max(1, Math.ceil(err.retryAfterS))) },
      },
    );
  }
  if (err instanceof OperationError) {
    return jsonAnswer(
      {
        error: {
          code: "operation_refused",
          message: err.message,
          details: [{ path: "op", message: err.message, reason: err.code }],
        },
      },
      { status: 409 },
    );
  }
  if (err instanceof ZodError) return errorResponse(badRequestOf(err), logger);
  logger.error({ err }, "unhandled error in API route");
  return jsonAnswer(
    { error: { code: "internal", message: "Something went wrong on the server", details: [] } },
    { status: 500 },
  );
}

/**
 * The context with its `signal`: a getter, so the stop link is made only for the handlers that
 * read it (streams, long polls), not for every request.
 */
export function withStopSignal<C extends { signal: AbortSignal }>(fields: Omit<C, "signal">, link: RequestStopLink): C {
  return Object.defineProperty(fields, "signal", { get: () => link.signal, enumerable: true }) as C;
}
