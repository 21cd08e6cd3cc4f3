import "server-only";
import type { Store } from "@/db/client";
import { listSubmissionsByPaperId, type SubmissionListItem } from "@/db/queries/submissions";

/** A paper's submissions, by agent, variant and run, with their archive and latest job. */
export function listPaperSubmissions(store: Store, paperId: string): Promise<SubmissionListItem[]> {
  return listSubmissionsByPaperId(store.db, paperId);
}
