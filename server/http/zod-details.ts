import type { ZodError } from "zod";
import type { ErrorDetail } from "@/lib/errors";

/** `sub_tasks[2].weight`-style paths, as PaperBench users read them. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || "(root)";
}

export function zodIssuesToDetails(err: ZodError): ErrorDetail[] {
  return err.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}
