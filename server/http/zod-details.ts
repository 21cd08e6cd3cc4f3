import type { ZodError } from "zod";
import { AppError } from "@/lib/errors";
import { issuePredicate, problemSentence, problemsSentence, zodProblems } from "@/lib/validation/problem-words";

/** A request that failed its schema: a 400 listing every problem, in words, with each one's path. */
export function badRequestOf(err: ZodError): AppError {
  const details = zodProblems(err);
  return new AppError("bad_request", problemsSentence(details), details);
}

/** One field's problem (`message`: what is wrong, "must …"): a 400 that says it in words. */
export function badField(path: string, message: string): AppError {
  return new AppError("bad_request", problemSentence({ path, message }), [{ path, message }]);
}

/** Everything wrong with one field's value, as one predicate ("must not be empty; must be at most …"). */
export function fieldPredicate(err: ZodError): string {
  return err.issues.map(issuePredicate).join("; ");
}
