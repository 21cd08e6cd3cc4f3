/**
 * Who may call what: every API route (every exported method of every `app/api/**\/route.ts`) against
 * the built studio over HTTP, as each kind of caller, with the status each must get. The table is
 * the one place these expectations live; a route without a row (or a row without a route) fails
 * the suite, so a new route cannot ship without saying who may call it.
 *
 * Writes are sent with bodies the route refuses (400) or ids that do not exist (404) so that a
 * caller who gets past the access checks changes nothing: a 400/404 there proves the checks let
 * them through, a 401/403 that they stopped them before anything was read.
 */
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { addPaperMember, createPaper } from "@/db/queries/papers";
import { getUserByEmail } from "@/db/queries/users";
import { createAccount } from "@/server/users/create-account";
import { DEMO_PAPER_ID, ROOT, STAFF, AUTHOR, api, signIn } from "./harness";
import { tarGz, uploadSubmission } from "./runner-harness";
import { studioSuite } from "./studio-suite";

const CALLERS = ["signedOut", "otherPaper", "grader", "assignedGrader", "author", "staff"] as const;
type Caller = (typeof CALLERS)[number];
type Statuses = readonly [
  signedOut: number,
  otherPaper: number,
  grader: number,
  assignedGrader: number,
  author: number,
  staff: number,
];

const GRADER = { email: "grader@demo.rubric.studio", password: "grader-demo-pass" };
const OTHER = { email: "other-paper-author@test.rubric.studio", password: "other-paper-pass-4b1d93" };
const UNASSIGNED = { email: "unassigned-grader@test.rubric.studio", password: "unassigned-grader-pass-77c2" };

/** Ids the requests need, found once the studio runs. */
interface Ids {
  paper: string;
  grading: string;
  leaf: string;
  node: string;
  thread: string;
  version: string;
  agent: string;
  submission: string;
  /** A queued reproduction of the demo paper (the matrix's studio has no runner). */
  job: string;
}

interface Row {
  /** The request sent for this route (the URL with real ids, and a body for writes). */
  request: (ids: Ids) => { url: string; body?: unknown };
  expect: Statuses;
  /** It ends the callers' sessions: sent after every other row. */
  last?: true;
}

// Statuses that repeat: who sees a paper, who edits its rubric, who manages it.
const PAPER_VIEW: Statuses = [401, 403, 200, 200, 200, 200];
const PAPER_VIEW_WRITE: Statuses = [401, 403, 400, 400, 400, 400];
const RUBRIC_EDIT: Statuses = [401, 403, 403, 403, 400, 400];
const PAPER_MANAGE: Statuses = [401, 403, 403, 403, 403, 400];
const SIGNED_IN: Statuses = [401, 200, 200, 200, 200, 200];
/** A grading: its paper's members, but of graders only the one it is assigned to. */
const GRADING_VIEW: Statuses = [401, 403, 403, 200, 200, 200];
const STAFF_ONLY_WRITE: Statuses = [401, 403, 403, 403, 403, 400];
/** JudgeEval shows the judge beside the human: staff, and authors on their papers. */
const JUDGE_EVAL: Statuses = [401, 403, 403, 403, 200, 200];
/** Chosen submissions outside the caller's papers are unknown to them (404), not forbidden. */
const JUDGE_EVAL_CHOSEN: Statuses = [401, 404, 404, 404, 200, 200];

const P = (ids: Ids) => `/api/papers/${ids.paper}`;
const G = (ids: Ids) => `/api/gradings/${ids.grading}`;
const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";
/** Runner protocol routes: only a runner or job token opens them. */
const RUNNER_ONLY: Statuses = [401, 401, 401, 401, 401, 401];

/** Keyed by `METHOD /api/path/[param]` exactly as the route files sit under app/. */
const MATRIX: Record<string, Row> = {
  // Auth.js: the session endpoint answers everyone; a credentials post without its CSRF token is refused.
  "GET /api/auth/[...nextauth]": {
    request: () => ({ url: "/api/auth/session" }),
    expect: [200, 200, 200, 200, 200, 200],
  },
  "POST /api/auth/[...nextauth]": {
    request: () => ({ url: "/api/auth/signout", body: "form" }),
    expect: [302, 302, 302, 302, 302, 302],
  },

  "GET /api/papers": { request: () => ({ url: "/api/papers" }), expect: SIGNED_IN },
  "POST /api/papers": { request: () => ({ url: "/api/papers", body: {} }), expect: STAFF_ONLY_WRITE },
  "GET /api/papers/[paperId]": { request: (ids) => ({ url: P(ids) }), expect: PAPER_VIEW },
  "PATCH /api/papers/[paperId]": { request: (ids) => ({ url: P(ids), body: { title: 7 } }), expect: PAPER_MANAGE },
  "GET /api/papers/[paperId]/members": { request: (ids) => ({ url: `${P(ids)}/members` }), expect: PAPER_VIEW },
  "POST /api/papers/[paperId]/members": {
    request: (ids) => ({ url: `${P(ids)}/members`, body: {} }),
    expect: PAPER_MANAGE,
  },
  "DELETE /api/papers/[paperId]/members/[userId]": {
    request: (ids) => ({ url: `${P(ids)}/members/${NO_SUCH_ID}` }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  // Reproduction settings: members read them and the secrets' names; staff change them.
  "GET /api/papers/[paperId]/run-settings": {
    request: (ids) => ({ url: `${P(ids)}/run-settings` }),
    expect: PAPER_VIEW,
  },
  "PUT /api/papers/[paperId]/run-settings": {
    request: (ids) => ({ url: `${P(ids)}/run-settings`, body: {} }),
    expect: PAPER_MANAGE,
  },
  "PUT /api/papers/[paperId]/secrets/[name]": {
    request: (ids) => ({ url: `${P(ids)}/secrets/MATRIX_TOKEN`, body: {} }),
    expect: PAPER_MANAGE,
  },
  "DELETE /api/papers/[paperId]/secrets/[name]": {
    request: (ids) => ({ url: `${P(ids)}/secrets/NO_SUCH_SECRET` }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  "GET /api/papers/[paperId]/gradings": { request: (ids) => ({ url: `${P(ids)}/gradings` }), expect: PAPER_VIEW },
  "POST /api/papers/[paperId]/gradings": {
    request: (ids) => ({ url: `${P(ids)}/gradings`, body: {} }),
    expect: PAPER_MANAGE,
  },

  // Submissions: members list them; staff upload (a JSON body is refused, 415, once the caller may upload).
  "GET /api/papers/[paperId]/submissions": { request: (ids) => ({ url: `${P(ids)}/submissions` }), expect: PAPER_VIEW },
  "POST /api/papers/[paperId]/submissions": {
    request: (ids) => ({ url: `${P(ids)}/submissions`, body: {} }),
    expect: [401, 403, 403, 403, 403, 415],
  },

  "GET /api/papers/[paperId]/rubric": { request: (ids) => ({ url: `${P(ids)}/rubric` }), expect: PAPER_VIEW },
  // An upload that is not a rubric is unprocessable (422) for those who may upload.
  "PUT /api/papers/[paperId]/rubric": {
    request: (ids) => ({ url: `${P(ids)}/rubric`, body: {} }),
    expect: [401, 403, 403, 403, 422, 422],
  },
  "POST /api/papers/[paperId]/rubric/preview": {
    request: (ids) => ({ url: `${P(ids)}/rubric/preview`, body: {} }),
    expect: [401, 403, 403, 403, 422, 422],
  },
  "GET /api/papers/[paperId]/rubric/export": {
    request: (ids) => ({ url: `${P(ids)}/rubric/export?force=1` }),
    expect: PAPER_VIEW,
  },
  "GET /api/papers/[paperId]/rubric/nodes": {
    request: (ids) => ({ url: `${P(ids)}/rubric/nodes` }),
    expect: PAPER_VIEW,
  },
  "GET /api/papers/[paperId]/rubric/nodes/[key]/history": {
    request: (ids) => ({ url: `${P(ids)}/rubric/nodes/${ids.node}/history` }),
    expect: PAPER_VIEW,
  },
  "GET /api/papers/[paperId]/rubric/tree": {
    request: (ids) => ({ url: `${P(ids)}/rubric/tree?revision=1` }),
    expect: PAPER_VIEW,
  },
  "POST /api/papers/[paperId]/rubric/tree/restore": {
    request: (ids) => ({ url: `${P(ids)}/rubric/tree/restore`, body: {} }),
    expect: RUBRIC_EDIT,
  },
  "GET /api/papers/[paperId]/rubric/deleted": {
    request: (ids) => ({ url: `${P(ids)}/rubric/deleted` }),
    expect: PAPER_VIEW,
  },
  "GET /api/papers/[paperId]/rubric/revisions": {
    request: (ids) => ({ url: `${P(ids)}/rubric/revisions` }),
    expect: PAPER_VIEW,
  },
  "POST /api/papers/[paperId]/rubric/operations": {
    request: (ids) => ({ url: `${P(ids)}/rubric/operations`, body: {} }),
    expect: RUBRIC_EDIT,
  },
  "GET /api/papers/[paperId]/rubric/events": {
    request: (ids) => ({ url: `${P(ids)}/rubric/events` }),
    expect: PAPER_VIEW,
  },
  "POST /api/papers/[paperId]/rubric/presence": {
    request: (ids) => ({ url: `${P(ids)}/rubric/presence`, body: {} }),
    expect: PAPER_VIEW_WRITE,
  },
  // Signing off a revision is the authors' and staff's call.
  "GET /api/papers/[paperId]/rubric/review": {
    request: (ids) => ({ url: `${P(ids)}/rubric/review` }),
    expect: PAPER_VIEW,
  },
  "POST /api/papers/[paperId]/rubric/review": {
    request: (ids) => ({ url: `${P(ids)}/rubric/review`, body: {} }),
    expect: RUBRIC_EDIT,
  },
  "GET /api/papers/[paperId]/rubric/versions": {
    request: (ids) => ({ url: `${P(ids)}/rubric/versions` }),
    expect: PAPER_VIEW,
  },
  // A rubric change's consequences: those who change the rubric see them; staff re-grade.
  "GET /api/papers/[paperId]/rubric/consequences": {
    request: (ids) => ({ url: `${P(ids)}/rubric/consequences` }),
    expect: [401, 403, 403, 403, 200, 200],
  },
  "POST /api/papers/[paperId]/rubric/consequences": {
    request: (ids) => ({ url: `${P(ids)}/rubric/consequences`, body: {} }),
    expect: PAPER_MANAGE,
  },
  "POST /api/papers/[paperId]/rubric/versions": {
    request: (ids) => ({ url: `${P(ids)}/rubric/versions`, body: {} }),
    expect: RUBRIC_EDIT,
  },
  "GET /api/papers/[paperId]/rubric/versions/[versionId]": {
    request: (ids) => ({ url: `${P(ids)}/rubric/versions/${ids.version}` }),
    expect: PAPER_VIEW,
  },
  "POST /api/papers/[paperId]/rubric/versions/[versionId]/restore": {
    request: (ids) => ({ url: `${P(ids)}/rubric/versions/${NO_SUCH_ID}/restore`, body: {} }),
    expect: [401, 403, 403, 403, 404, 404],
  },
  // Every member comments: graders discuss the rubric too.
  "GET /api/papers/[paperId]/rubric/comments": {
    request: (ids) => ({ url: `${P(ids)}/rubric/comments` }),
    expect: PAPER_VIEW,
  },
  "POST /api/papers/[paperId]/rubric/comments": {
    request: (ids) => ({ url: `${P(ids)}/rubric/comments`, body: {} }),
    expect: PAPER_VIEW_WRITE,
  },
  "POST /api/papers/[paperId]/rubric/comments/[threadId]": {
    request: (ids) => ({ url: `${P(ids)}/rubric/comments/${ids.thread}`, body: {} }),
    expect: PAPER_VIEW_WRITE,
  },
  "PATCH /api/papers/[paperId]/rubric/comments/[threadId]": {
    request: (ids) => ({ url: `${P(ids)}/rubric/comments/${ids.thread}`, body: {} }),
    expect: PAPER_VIEW_WRITE,
  },

  "GET /api/gradings/[gradingId]": { request: (ids) => ({ url: G(ids) }), expect: GRADING_VIEW },
  "GET /api/gradings/[gradingId]/export": { request: (ids) => ({ url: `${G(ids)}/export` }), expect: GRADING_VIEW },
  "GET /api/gradings/[gradingId]/agreement": {
    request: (ids) => ({ url: `${G(ids)}/agreement` }),
    expect: GRADING_VIEW,
  },
  "GET /api/gradings/[gradingId]/files": { request: (ids) => ({ url: `${G(ids)}/files` }), expect: GRADING_VIEW },
  "GET /api/gradings/[gradingId]/leaves/[nodeKey]": {
    request: (ids) => ({ url: `${G(ids)}/leaves/${ids.leaf}` }),
    expect: GRADING_VIEW,
  },
  // Overrides: staff and the grader it is assigned to; authors read gradings but do not review them.
  "POST /api/gradings/[gradingId]/scores": {
    request: (ids) => ({ url: `${G(ids)}/scores`, body: {} }),
    expect: [401, 403, 403, 400, 403, 400],
  },
  // Unsure flags: the same reviewers as scores.
  "POST /api/gradings/[gradingId]/unsure": {
    request: (ids) => ({ url: `${G(ids)}/unsure`, body: {} }),
    expect: [401, 403, 403, 400, 403, 400],
  },
  "DELETE /api/gradings/[gradingId]/unsure": {
    request: (ids) => ({ url: `${G(ids)}/unsure` }),
    expect: [401, 403, 403, 400, 403, 400],
  },
  "GET /api/gradings/[gradingId]/assignments": {
    request: (ids) => ({ url: `${G(ids)}/assignments` }),
    expect: [401, 403, 403, 403, 403, 200],
  },
  "POST /api/gradings/[gradingId]/assignments": {
    request: (ids) => ({ url: `${G(ids)}/assignments`, body: {} }),
    expect: STAFF_ONLY_WRITE,
  },
  // Attaching an archive takes a multipart form: a JSON body is refused (415) once the caller may attach.
  "POST /api/gradings/[gradingId]/submission": {
    request: (ids) => ({ url: `${G(ids)}/submission`, body: {} }),
    expect: [401, 403, 403, 403, 403, 415],
  },
  "DELETE /api/gradings/[gradingId]/assignments/[assignmentId]": {
    request: (ids) => ({ url: `${G(ids)}/assignments/${NO_SUCH_ID}` }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  "GET /api/review-queue": { request: () => ({ url: "/api/review-queue" }), expect: SIGNED_IN },
  // A submission: staff and its paper's members see it (graders review its code and reproduction); others learn nothing (404).
  "GET /api/submissions/[submissionId]": {
    request: (ids) => ({ url: `/api/submissions/${ids.submission}` }),
    expect: [401, 404, 200, 200, 200, 200],
  },
  "GET /api/submissions/[submissionId]/files": {
    request: (ids) => ({ url: `/api/submissions/${ids.submission}/files` }),
    expect: [401, 404, 200, 200, 200, 200],
  },
  // Comparing gradings: the submission's members; each grading only for who reads it in full (the unassigned grader has none).
  "GET /api/submissions/[submissionId]/compare": {
    request: (ids) => ({ url: `/api/submissions/${ids.submission}/compare` }),
    expect: [401, 404, 200, 200, 200, 200],
  },
  "GET /api/submissions/[submissionId]/judge-runs": {
    request: (ids) => ({ url: `/api/submissions/${ids.submission}/judge-runs` }),
    expect: [401, 404, 200, 200, 200, 200],
  },
  // Reproducing is staff's; the harness seeds the demo's gradings without their files (seedDemo alone), so staff get 409 and nothing is queued.
  "POST /api/submissions/[submissionId]/reproduce": {
    request: (ids) => ({ url: `/api/submissions/${ids.submission}/reproduce`, body: {} }),
    expect: [401, 404, 403, 403, 403, 409],
  },

  // Jobs: staff see the queue; a job is its paper's (members read it, others learn nothing); acting on one is staff's.
  "GET /api/jobs": { request: () => ({ url: "/api/jobs" }), expect: [401, 403, 403, 403, 403, 200] },
  "GET /api/jobs/[jobId]": {
    request: (ids) => ({ url: `/api/jobs/${ids.job}` }),
    expect: [401, 404, 200, 200, 200, 200],
  },
  "GET /api/jobs/[jobId]/log": {
    request: (ids) => ({ url: `/api/jobs/${ids.job}/log` }),
    expect: [401, 404, 200, 200, 200, 200],
  },
  // A queued job has no metadata or outputs yet: members get 404 for that, others for the job.
  "GET /api/jobs/[jobId]/metadata": {
    request: (ids) => ({ url: `/api/jobs/${ids.job}/metadata` }),
    expect: [401, 404, 404, 404, 404, 404],
  },
  "GET /api/jobs/[jobId]/outputs": {
    request: (ids) => ({ url: `/api/jobs/${ids.job}/outputs` }),
    expect: [401, 404, 404, 404, 404, 404],
  },
  "GET /api/jobs/[jobId]/outputs/files": {
    request: (ids) => ({ url: `/api/jobs/${ids.job}/outputs/files?path=results.csv` }),
    expect: [401, 404, 404, 404, 404, 404],
  },
  // Staff cancel the queued job (200), then retry it (a new job, 200); members are refused.
  "POST /api/jobs/[jobId]/cancel": {
    request: (ids) => ({ url: `/api/jobs/${ids.job}/cancel` }),
    expect: [401, 404, 403, 403, 403, 200],
  },
  "POST /api/jobs/[jobId]/retry": {
    request: (ids) => ({ url: `/api/jobs/${ids.job}/retry` }),
    expect: [401, 404, 403, 403, 403, 200],
  },
  // Runners and their tokens are staff's.
  // The judge: configurations and starting runs are staff's; a run's progress is its paper's (an unknown run is nobody's).
  "GET /api/judge/configs": { request: () => ({ url: "/api/judge/configs" }), expect: [401, 403, 403, 403, 403, 200] },
  "POST /api/judge/configs": { request: () => ({ url: "/api/judge/configs", body: {} }), expect: STAFF_ONLY_WRITE },
  "PATCH /api/judge/configs/[configId]": {
    request: () => ({ url: `/api/judge/configs/${NO_SUCH_ID}`, body: {} }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  "DELETE /api/judge/configs/[configId]": {
    request: () => ({ url: `/api/judge/configs/${NO_SUCH_ID}` }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  "GET /api/judge/history": { request: () => ({ url: "/api/judge/history" }), expect: [401, 403, 403, 403, 403, 200] },
  "GET /api/evaluations": { request: () => ({ url: "/api/evaluations" }), expect: [401, 403, 403, 403, 403, 200] },
  "POST /api/evaluations": { request: () => ({ url: "/api/evaluations", body: {} }), expect: STAFF_ONLY_WRITE },
  "POST /api/evaluations/ingest": {
    request: () => ({ url: "/api/evaluations/ingest", body: {} }),
    expect: STAFF_ONLY_WRITE,
  },
  "GET /api/evaluations/[evaluationId]": {
    request: () => ({ url: `/api/evaluations/${NO_SUCH_ID}` }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  "POST /api/evaluations/[evaluationId]/submissions": {
    request: () => ({ url: `/api/evaluations/${NO_SUCH_ID}/submissions`, body: {} }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  "PUT /api/evaluations/[evaluationId]/review-sampling": {
    request: () => ({ url: `/api/evaluations/${NO_SUCH_ID}/review-sampling`, body: {} }),
    expect: [401, 403, 403, 403, 403, 400],
  },
  "POST /api/evaluations/[evaluationId]/review-sampling": {
    request: () => ({ url: `/api/evaluations/${NO_SUCH_ID}/review-sampling`, body: {} }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  "GET /api/evaluations/[evaluationId]/export": {
    request: () => ({ url: `/api/evaluations/${NO_SUCH_ID}/export?format=csv` }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  "GET /api/evaluations/[evaluationId]/matrix": {
    request: () => ({ url: `/api/evaluations/${NO_SUCH_ID}/matrix` }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  "GET /api/evaluations/[evaluationId]/stream": {
    request: () => ({ url: `/api/evaluations/${NO_SUCH_ID}/stream` }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  "POST /api/evaluations/[evaluationId]/retry": {
    request: () => ({ url: `/api/evaluations/${NO_SUCH_ID}/retry`, body: { allFailed: true } }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  "POST /api/judge/estimate": { request: () => ({ url: "/api/judge/estimate", body: {} }), expect: STAFF_ONLY_WRITE },
  "POST /api/judge/runs": { request: () => ({ url: "/api/judge/runs", body: {} }), expect: STAFF_ONLY_WRITE },
  "GET /api/judge/runs/[runId]": {
    request: () => ({ url: `/api/judge/runs/${NO_SUCH_ID}` }),
    expect: [401, 404, 404, 404, 404, 404],
  },
  "POST /api/judge/runs/[runId]/cancel": {
    request: () => ({ url: `/api/judge/runs/${NO_SUCH_ID}/cancel`, body: {} }),
    expect: [401, 404, 404, 404, 404, 404],
  },

  // Metrics are staff's (and a scraper's with METRICS_TOKEN, app/api/metrics/metrics-route.db.test.ts).
  "GET /api/metrics": { request: () => ({ url: "/api/metrics" }), expect: [401, 403, 403, 403, 403, 200] },
  "GET /api/runners": { request: () => ({ url: "/api/runners" }), expect: [401, 403, 403, 403, 403, 200] },
  "GET /api/runners/tokens": {
    request: () => ({ url: "/api/runners/tokens" }),
    expect: [401, 403, 403, 403, 403, 200],
  },
  "POST /api/runners/tokens": { request: () => ({ url: "/api/runners/tokens", body: {} }), expect: STAFF_ONLY_WRITE },
  "DELETE /api/runners/tokens/[tokenId]": {
    request: () => ({ url: `/api/runners/tokens/${NO_SUCH_ID}` }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  // The runner protocol answers runner and job tokens only: a browser session, even staff's, is nobody there.
  "POST /api/runner/register": { request: () => ({ url: "/api/runner/register", body: {} }), expect: RUNNER_ONLY },
  "POST /api/runner/claim": { request: () => ({ url: "/api/runner/claim", body: {} }), expect: RUNNER_ONLY },
  "POST /api/runner/jobs/[jobId]/heartbeat": {
    request: (ids) => ({ url: `/api/runner/jobs/${ids.job}/heartbeat`, body: {} }),
    expect: RUNNER_ONLY,
  },
  "POST /api/runner/jobs/[jobId]/logs": {
    request: (ids) => ({ url: `/api/runner/jobs/${ids.job}/logs`, body: {} }),
    expect: RUNNER_ONLY,
  },
  "POST /api/runner/jobs/[jobId]/wait-cancel": {
    request: (ids) => ({ url: `/api/runner/jobs/${ids.job}/wait-cancel`, body: {} }),
    expect: RUNNER_ONLY,
  },
  "GET /api/runner/jobs/[jobId]/submission": {
    request: (ids) => ({ url: `/api/runner/jobs/${ids.job}/submission` }),
    expect: RUNNER_ONLY,
  },
  "PUT /api/runner/jobs/[jobId]/outputs": {
    request: (ids) => ({ url: `/api/runner/jobs/${ids.job}/outputs`, body: {} }),
    expect: RUNNER_ONLY,
  },
  "POST /api/runner/jobs/[jobId]/complete": {
    request: (ids) => ({ url: `/api/runner/jobs/${ids.job}/complete`, body: {} }),
    expect: RUNNER_ONLY,
  },
  "POST /api/runner/jobs/[jobId]/release": {
    request: (ids) => ({ url: `/api/runner/jobs/${ids.job}/release`, body: {} }),
    expect: RUNNER_ONLY,
  },

  // Everyone's own inbox: only ever their own notifications, filtered to what they may still see.
  "GET /api/notifications": { request: () => ({ url: "/api/notifications" }), expect: SIGNED_IN },
  "POST /api/notifications/read": {
    request: () => ({ url: "/api/notifications/read", body: {} }),
    expect: [401, 400, 400, 400, 400, 400],
  },
  "GET /api/notifications/stream": { request: () => ({ url: "/api/notifications/stream" }), expect: SIGNED_IN },

  "GET /api/agents": { request: () => ({ url: "/api/agents" }), expect: [401, 403, 403, 403, 403, 200] },
  "POST /api/import": { request: () => ({ url: "/api/import", body: {} }), expect: [401, 403, 403, 403, 403, 422] },
  "POST /api/import/preview": {
    request: () => ({ url: "/api/import/preview", body: {} }),
    expect: [401, 403, 403, 403, 403, 422],
  },

  // Everyone signed in may ask; each gets the papers they may evaluate (none for graders).
  "GET /api/judge-eval": { request: () => ({ url: "/api/judge-eval" }), expect: SIGNED_IN },
  "GET /api/judge-lab": { request: () => ({ url: "/api/judge-lab" }), expect: [401, 403, 403, 403, 403, 200] },
  "POST /api/judge-lab": { request: () => ({ url: "/api/judge-lab", body: {} }), expect: STAFF_ONLY_WRITE },
  "GET /api/judge-lab/[labId]": {
    request: () => ({ url: `/api/judge-lab/${NO_SUCH_ID}` }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  "GET /api/judge-lab/papers/[paperId]": {
    request: (ids) => ({ url: `/api/judge-lab/papers/${ids.paper}` }),
    expect: [401, 403, 403, 403, 403, 200],
  },
  "POST /api/judge-lab/papers/[paperId]/suggestions": {
    request: (ids) => ({ url: `/api/judge-lab/papers/${ids.paper}/suggestions`, body: {} }),
    expect: STAFF_ONLY_WRITE,
  },
  "POST /api/judge-lab/papers/[paperId]/addendum": {
    request: (ids) => ({ url: `/api/judge-lab/papers/${ids.paper}/addendum`, body: {} }),
    expect: STAFF_ONLY_WRITE,
  },
  "POST /api/judge-eval": {
    request: (ids) => ({ url: "/api/judge-eval", body: { submissionIds: [ids.submission] } }),
    expect: JUDGE_EVAL_CHOSEN,
  },
  "GET /api/judge-eval/results": {
    request: (ids) => ({ url: `/api/judge-eval/results?paper=${ids.paper}` }),
    expect: JUDGE_EVAL,
  },
  "POST /api/judge-eval/results": {
    request: (ids) => ({ url: "/api/judge-eval/results", body: { submissionIds: [ids.submission] } }),
    expect: JUDGE_EVAL_CHOSEN,
  },

  // Users: staff disable, enable and sign out anyone; everyone changes their own password and ends their own sessions.
  "POST /api/users/[userId]/disable": {
    request: () => ({ url: `/api/users/${NO_SUCH_ID}/disable` }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  "POST /api/users/[userId]/enable": {
    request: () => ({ url: `/api/users/${NO_SUCH_ID}/enable` }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  "DELETE /api/users/[userId]/sessions": {
    request: () => ({ url: `/api/users/${NO_SUCH_ID}/sessions` }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  "PUT /api/users/me/password": {
    request: () => ({ url: "/api/users/me/password", body: {} }),
    expect: [401, 400, 400, 400, 400, 400],
  },
  // Everyone's own personal API tokens; another's token id is unknown to them (404).
  "GET /api/users/me/tokens": { request: () => ({ url: "/api/users/me/tokens" }), expect: SIGNED_IN },
  "POST /api/users/me/tokens": {
    request: () => ({ url: "/api/users/me/tokens", body: {} }),
    expect: [401, 400, 400, 400, 400, 400],
  },
  "DELETE /api/users/me/tokens/[tokenId]": {
    request: () => ({ url: `/api/users/me/tokens/${NO_SUCH_ID}` }),
    expect: [401, 404, 404, 404, 404, 404],
  },
  "DELETE /api/users/me/sessions": {
    request: () => ({ url: "/api/users/me/sessions" }),
    expect: [401, 200, 200, 200, 200, 200],
    last: true,
  },

  // Only staff delete the demo; without its confirmation the request deletes nothing (400).
  "DELETE /api/demo": { request: () => ({ url: "/api/demo", body: {} }), expect: STAFF_ONLY_WRITE },

  // Readiness is public (probes carry no session) and says only whether the database answers.
  "GET /api/health": { request: () => ({ url: "/api/health" }), expect: [200, 200, 200, 200, 200, 200] },
  // The leaderboard is public; the gradings behind a row are for members, filtered to what each may open.
  "GET /api/leaderboard": { request: () => ({ url: "/api/leaderboard" }), expect: [200, 200, 200, 200, 200, 200] },
  "GET /api/leaderboard/runs": {
    request: (ids) => ({ url: `/api/leaderboard/runs?agent=${ids.agent}` }),
    expect: SIGNED_IN,
  },
};

/** Every `METHOD /api/...` the app serves, read from the route files. */
function discoverRoutes(): string[] {
  const apiDir = path.join(ROOT, "app", "api");
  const routes: string[] = [];
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.name === "route.ts") {
        const source = fs.readFileSync(full, "utf8");
        const methods = new Set<string>();
        for (const m of source.matchAll(
          /export\s+(?:const|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g,
        ))
          methods.add(m[1]);
        for (const m of source.matchAll(/export\s+const\s+\{([^}]*)\}/g)) {
          for (const name of m[1].split(",").map((s) =>
            s
              .trim()
              .split(/\s*:\s*/)
              .pop()!,
          )) {
            if (/^(GET|POST|PUT|PATCH|DELETE)$/.test(name)) methods.add(name);
          }
        }
        const route = "/" + path.relative(ROOT, path.dirname(full)).split(path.sep).slice(1).join("/");
        for (const method of methods) routes.push(`${method} /api${route.slice("/api".length)}`);
      }
    }
  };
  visit(apiDir);
  return routes.sort();
}

describe("the authorization matrix covers every route", () => {
  it("has exactly one row per API route and method", () => {
    const routes = discoverRoutes();
    expect(routes.length).toBeGreaterThan(40);
    expect(Object.keys(MATRIX).sort()).toEqual(routes);
  });
});

function matrixSuite(kind: "pglite" | "postgres") {
  describe(`who may call each API route (${kind})`, () => {
    // Staff signs in below with the other callers, at once.
    const studio = studioSuite(kind, "authz", {
      setup: async (handle) => {
        const staff = (await getUserByEmail(handle, STAFF.email))!;
        const other = await createAccount(handle, {
          email: OTHER.email,
          name: "Other Author",
          password: OTHER.password,
        });
        await createPaper(
          handle,
          {
            id: "another-paper",
            title: "Another paper",
            paperMarkdown: "",
            addendum: "",
            judgeAddendum: "",
            blacklist: [],
          },
          staff.id,
        );
        await addPaperMember(handle, {
          paperId: "another-paper",
          email: other.email,
          role: "author",
          addedBy: staff.id,
        });
        await createAccount(handle, {
          email: UNASSIGNED.email,
          name: "Unassigned Grader",
          password: UNASSIGNED.password,
        });
        await addPaperMember(handle, {
          paperId: DEMO_PAPER_ID,
          email: UNASSIGNED.email,
          role: "grader",
          addedBy: staff.id,
        });
      },
      signInStaff: false,
    });
    const cookies = {} as Record<Caller, string>;
    let ids: Ids;

    beforeAll(async () => {
      const signed = await Promise.all(
        [OTHER, UNASSIGNED, GRADER, AUTHOR, STAFF].map((u) => signIn(studio.url, u.email, u.password)),
      );
      [cookies.otherPaper, cookies.grader, cookies.assignedGrader, cookies.author, cookies.staff] = signed;
      cookies.signedOut = "";
      ids = await findIds(studio.url, cookies);
    });

    const rows = Object.entries(MATRIX).sort(([, a], [, b]) => Number(a.last ?? false) - Number(b.last ?? false));
    for (const [route, row] of rows) {
      it(`${route}: ${CALLERS.map((c, i) => `${c} ${row.expect[i]}`).join(", ")}`, async () => {
        const method = route.split(" ")[0];
        const { url, body } = row.request(ids);
        // Every write here is refused before it changes anything, so the callers may ask at once.
        const statuses = await Promise.all(
          CALLERS.map((caller) => statusOf(studio.url, cookies[caller], method, url, body)),
        );
        expect(Object.fromEntries(CALLERS.map((c, i) => [c, statuses[i]]))).toEqual(
          Object.fromEntries(CALLERS.map((c, i) => [c, row.expect[i]])),
        );
      });
    }
  });
}

/** The status of one request; a stream is closed once its headers arrive. */
async function statusOf(baseUrl: string, cookie: string, method: string, url: string, body: unknown): Promise<number> {
  const headers: Record<string, string> = { origin: baseUrl };
  if (cookie) headers.cookie = cookie;
  let payload: string | undefined;
  if (body === "form") {
    headers["content-type"] = "application/x-www-form-urlencoded";
    payload = "";
  } else if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers,
    body: payload,
    redirect: "manual",
    signal: abort.signal,
  });
  abort.abort();
  return res.status;
}

async function findIds(baseUrl: string, cookies: Record<Caller, string>): Promise<Ids> {
  const ok = async <T>(answer: Promise<{ status: number; body: T }>, what: string): Promise<T> => {
    const { status, body } = await answer;
    if (status >= 300) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
    return body;
  };
  const staff = cookies.staff;
  const queue = await ok(
    api<{ assignments: { gradingId: string; blind: boolean; nodeKeys: string[] | null }[] }>(
      baseUrl,
      cookies.assignedGrader,
      "GET",
      "/api/review-queue",
    ),
    "review queue",
  );
  const whole = queue.assignments.find((a) => !a.blind && a.nodeKeys === null);
  if (!whole) throw new Error("the demo grader has no whole, non-blind assignment");
  const leafOf = await ok(
    api<{
      rows?: { key: string; isLeaf?: boolean; parentKey: string | null }[];
      nodes?: { key: string; parentKey: string | null }[];
    }>(baseUrl, staff, "GET", `/api/gradings/${whole.gradingId}`),
    "grading",
  );
  const gradingRows = (leafOf.rows ?? leafOf.nodes ?? []) as { key: string; parentKey: string | null }[];
  const parents = new Set(gradingRows.map((r) => r.parentKey));
  const leaf = gradingRows.find((r) => !parents.has(r.key));
  if (!leaf) throw new Error(`no leaf in the grading payload: ${Object.keys(leafOf).join(", ")}`);
  const nodes = await ok(
    api<{ nodes: { key: string; parentKey: string | null }[] }>(
      baseUrl,
      staff,
      "GET",
      `/api/papers/${DEMO_PAPER_ID}/rubric/nodes`,
    ),
    "nodes",
  );
  const node = nodes.nodes.find((n) => n.parentKey !== null)!;
  const thread = await ok(
    api<{ thread?: { id: string }; id?: string }>(
      baseUrl,
      staff,
      "POST",
      `/api/papers/${DEMO_PAPER_ID}/rubric/comments`,
      { nodeKey: node.key, body: "A thread for the matrix" },
    ),
    "comment",
  );
  const version = await ok(
    api<{ version: { id: string } }>(baseUrl, staff, "POST", `/api/papers/${DEMO_PAPER_ID}/rubric/versions`, {
      name: "matrix",
    }),
    "version",
  );
  const board = await ok(
    api<{ rows?: { agentId: string }[]; agents?: { agentId?: string; id?: string }[] }>(
      baseUrl,
      "",
      "GET",
      "/api/leaderboard",
    ),
    "leaderboard",
  );
  const agentRow = (board.rows ?? board.agents ?? [])[0] as { agentId?: string; id?: string } | undefined;
  const agent = agentRow?.agentId ?? agentRow?.id;
  if (!agent) throw new Error(`no agent on the leaderboard: ${Object.keys(board).join(", ")}`);
  const candidates = await ok(
    api<{ candidates: { submissionId: string }[] }>(baseUrl, staff, "GET", `/api/judge-eval?paper=${DEMO_PAPER_ID}`),
    "judge-eval",
  );
  if (!candidates.candidates[0]) throw new Error("no JudgeEval candidate in the demo");
  const upload = await uploadSubmission(
    baseUrl,
    { cookie: staff },
    DEMO_PAPER_ID,
    { agent: "Matrix agent", run: 1, reproduce: true },
    await tarGz({ "reproduce.sh": "echo matrix\n" }),
  );
  if (upload.status !== 201 || !upload.body.jobId)
    throw new Error(`submission upload: ${upload.status} ${JSON.stringify(upload.body)}`);
  return {
    paper: DEMO_PAPER_ID,
    grading: whole.gradingId,
    leaf: leaf.key,
    node: node.key,
    thread: (thread.thread?.id ?? thread.id)!,
    version: version.version.id,
    agent,
    submission: candidates.candidates[0].submissionId,
    job: upload.body.jobId,
  };
}

matrixSuite("pglite");
if (process.env.DATABASE_URL) matrixSuite("postgres");
else if (process.env.CI === "true") {
  describe("authorization matrix on postgres", () => {
    it("runs in CI (DATABASE_URL must be set)", () => {
      throw new Error("CI=true but DATABASE_URL is not set: the PostgreSQL authorization matrix cannot run");
    });
  });
} else
  describe.skip("authorization matrix on postgres (set DATABASE_URL to run)", () => it("needs DATABASE_URL", () => {}));
