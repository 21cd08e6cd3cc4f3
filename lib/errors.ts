/** Stable error codes: clients and tests match on the code, people read the message. */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  /** A change sent from a page on another origin (CSRF), server/http/same-origin.ts. */
  cross_origin: 403,
  not_found: 404,
  conflict: 409,
  export_blocked: 409,
  operation_refused: 409,
  /** A runner sent something under a job lease that is no longer current (server/runners/job-lease.ts). */
  stale_lease: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_rubric: 422,
  /** Too many at once (runner registrations): the answer's Retry-After says when to try again. */
  too_many_requests: 429,
  internal: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string;
  message: string;
}

/** A failure the user can act on. Thrown from lib/ and db/, turned into a response by the route wrapper. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Where each problem is (a JSON path or a field name) and what is wrong there. */
    readonly details: readonly unknown[] = [],
    /** For a 429 or 503: seconds until a retry may succeed (the answer's Retry-After). */
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}
