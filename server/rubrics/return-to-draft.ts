import "server-only";
import type { Executor } from "@/db/client";
import type { RubricStatus } from "@/db/schema";
import { setRubricStatus } from "@/db/queries/rubric-review";

/** Any change to a signed-off rubric makes it a draft again, in the same transaction as the change. */
export async function returnToDraftAfterChange(tx: Executor, rubric: { id: string; revision: number; status: RubricStatus }): Promise<void> {
  if (rubric.status !== "signed_off") return;
  await setRubricStatus(tx, {
    rubricId: rubric.id,
    revision: rubric.revision,
    status: "draft",
    reason: `Changed after sign-off (revision ${rubric.revision})`,
  });
}
