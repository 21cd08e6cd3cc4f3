import type { Variant } from "@/lib/grading/variant";
import type { JobView } from "@/lib/jobs/job-view";
import type { SubmissionFlags } from "./blacklist-monitor";

/** A file of a submitted repository, as listed (contents are read one at a time). */
export interface SubmissionFileView {
  path: string;
  size: number;
  /** Why the content was not kept (binary, too large), or null when it was. */
  skipped: string | null;
}

/** A submission as `GET /api/submissions/<id>` answers it: the submission page and the review page's pane. */
export interface SubmissionView {
  id: string;
  paper: { id: string; title: string };
  agent: { id: string; name: string };
  runIndex: number;
  variant: Variant;
  archive: {
    name: string | null;
    /** What was kept of the repository (the listing's contents). */
    bytes: number;
    /** The repository as expanded, when it was uploaded to be run. */
    expandedBytes: number | null;
    fileCount: number;
    sha256: string | null;
    notes: { path: string; reason: string }[];
  };
  /** What the blacklist monitor found in the agent's log; null when none came with it. */
  flags: SubmissionFlags | null;
  /** A reproduce.log that came inside an imported archive. */
  hasReproduceLog: boolean;
  createdAt: string;
  files: SubmissionFileView[];
  /** Its reproductions, newest first. */
  jobs: JobView[];
}
