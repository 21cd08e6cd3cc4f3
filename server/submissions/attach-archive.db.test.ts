import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { getAgentByName } from "@/db/queries/agents";
import { getSubmissionById, listSubmissionFiles } from "@/db/queries/submissions";
import { createUser } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { agentNameOf } from "@/lib/submissions/schemas";
import { importGrading, listAgentChoices } from "@/server/gradings/import-grading";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { DEMO_DIR, gradedDemoText } from "@/test/blind-review";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { makeTarGz, makeZip } from "./archive.testutil";
import { attachSubmissionArchive } from "./attach-archive";

const PAPER = "demo-adaptive-clipping";

describe.each(testDatabaseKinds())("a grading's agent and its archive on %s", (kind) => {
  let handle: DbHandle;
  let staffId: string;
  let submissionId: string;
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    staffId = (await createUser(handle.db, { email: "staff@example.org", isStaff: true })).id;
    const { files, folderName } = readPaperFolder(DEMO_DIR);
    await importPaperFolder(handle, { files, folderName, userId: staffId, source: "test" });
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("a new agent is named from its scaffold and model and keeps both; an existing one keeps its own", async () => {
    const name = agentNameOf(" BasicAgent ", "o1 ");
    expect(name).toBe("BasicAgent · o1");
    const fileText = gradedDemoText(1);
    const input = {
      paperId: PAPER,
      agentName: name,
      agentScaffold: "BasicAgent",
      agentModel: "o1",
      variant: "full" as const,
      human: false,
      fileText,
      userId: staffId,
    };
    const first = await importGrading(handle, { ...input, runIndex: 1 });
    expect(first.createdAgent).toBe(true);
    submissionId = first.submissionId;
    expect(await getAgentByName(handle.db, name)).toMatchObject({ scaffold: "BasicAgent", model: "o1" });
    const second = await importGrading(handle, { ...input, runIndex: 2, agentModel: "other" });
    expect([second.createdAgent, second.agentId]).toEqual([false, first.agentId]);
    expect(await getAgentByName(handle.db, name)).toMatchObject({ model: "o1" });
    expect(await listAgentChoices(handle)).toEqual([{ id: first.agentId, name, model: "o1", scaffold: "BasicAgent" }]);
  });

  it("attaches an archive to a grading's submission, replaces it, and a refused archive keeps the stored one", async () => {
    const tar = await makeTarGz([
      { name: "repo/README.md", data: "# repo\n" },
      { name: "repo/train.py", data: "print('hi')\n" },
      { name: "repo/reproduce.log", data: "done\n" },
    ]);
    const attached = await attachSubmissionArchive(handle, {
      submissionId,
      upload: { name: "repo.tar.gz", data: tar },
    });
    expect(attached).toMatchObject({
      archiveName: "repo.tar.gz",
      replaced: false,
      archive: { files: 2, hasReproduceLog: true },
    });
    expect((await listSubmissionFiles(handle.db, submissionId)).map((f) => f.path).sort()).toEqual([
      "README.md",
      "train.py",
    ]);

    const zip = makeZip([{ name: "main.py", data: "x = 1\n" }]);
    const again = await attachSubmissionArchive(handle, { submissionId, upload: { name: "second.zip", data: zip } });
    expect([again.replaced, again.archive.files]).toEqual([true, 1]);
    expect((await listSubmissionFiles(handle.db, submissionId)).map((f) => f.path)).toEqual(["main.py"]);

    const refused = await attachSubmissionArchive(handle, {
      submissionId,
      upload: { name: "broken.zip", data: Buffer.from("not a zip") },
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBeLessThan(500);
    expect((await getSubmissionById(handle.db, submissionId))?.archiveName).toBe("second.zip");
    expect((await listSubmissionFiles(handle.db, submissionId)).map((f) => f.path)).toEqual(["main.py"]);
  });
});
