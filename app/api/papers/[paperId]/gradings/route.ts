import { importGrading } from "@/server/gradings/import-grading";
import { listPaperGradings } from "@/server/gradings/read-gradings";
import { apiRoute } from "@/server/http/route";
import { readSubmissionArchive } from "@/server/submissions/archive";
import { readGradingUpload } from "@/server/submissions/upload";
import { jsonAnswer } from "@/server/http/json-answer";

type Params = { paperId: string };

/**
 * The gradings of the paper's submissions (members and staff: they name the rubric version); a
 * grader sees the gradings assigned to them, without the root score where their assignment hides
 * verdicts.
 */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ store, paper, role, user }) => {
  return { gradings: await listPaperGradings(store, { paperId: paper.id, userId: user.id, role }) };
});

/**
 * Staff import of a PaperBench graded tree or judge output as a grading of one run (`agent`,
 * `run`, `variant`, `human`), optionally with the submitted repository (`submission`, multipart).
 */
export const POST = apiRoute<Params>({ paper: "manage" }, async ({ req, store, paper, user }) => {
  const upload = await readGradingUpload(req);
  // Read and check the archive before the transaction: a bad archive writes nothing.
  const archive = upload.archive ? await readSubmissionArchive(upload.archive) : null;
  const result = await importGrading(store, {
    paperId: paper.id,
    agentName: upload.agent,
    agentScaffold: upload.agentScaffold,
    agentModel: upload.agentModel,
    runIndex: upload.run,
    variant: upload.variant,
    human: upload.human,
    fileText: upload.fileText,
    fileName: upload.fileName,
    archive,
    userId: user.id,
  });
  return jsonAnswer(result, { status: 201 });
});
