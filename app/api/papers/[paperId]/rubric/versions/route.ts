import { z } from "zod";
import { createRubricVersion, listRubricVersions } from "@/db/queries/rubric-versions";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { AppError } from "@/lib/errors";

type Params = { paperId: string };

const versionCreateSchema = z.object({
  name: z.string().trim().min(1, "is required").max(200, "must be at most 200 characters"),
});

export const GET = apiRoute<Params>({ paper: "view" }, async ({ db, paper }) => {
  const rubric = await getRubricByPaperId(db, paper.id);
  return { versions: rubric ? await listRubricVersions(db, rubric.id) : [] };
});

/** Saves the live tree as a named version. */
export const POST = apiRoute<Params>({ paper: "edit-rubric" }, async ({ req, db, paper, user }) => {
  const { name } = await parseJsonBody(req, versionCreateSchema);
  const rubric = await getRubricByPaperId(db, paper.id);
  if (!rubric) throw new AppError("conflict", "The paper has no rubric yet: there is nothing to save");
  const version = await createRubricVersion(db, { rubricId: rubric.id, name, userId: user.id });
  return Response.json({ version }, { status: 201 });
});
