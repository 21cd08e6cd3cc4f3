import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { getPaperById } from "@/db/queries/papers";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { getRubricTreeAtRevision } from "@/server/rubrics/rubric-at-revision";
import { AppError } from "@/lib/errors";
import { ALL_PAPERS, paperFile, readPaperText, skipWithoutData } from "@/lib/rubric/paperbench-data.testutil";
import { serializeRubric } from "@/lib/rubric/paperbench";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { exportRubricJson } from "./export";
import { readPaperFolder } from "./folder-reader";
import { importPaperFolder, importRubricIntoPaper } from "./import";

const DEMO_DIR = path.join(process.cwd(), "rubrics", "demo");

/** Everything a refused import must leave alone: the bytes, the revision, the paper row. */
async function snapshot(handle: DbHandle, paperId: string) {
  const rubric = await getRubricByPaperId(handle.db, paperId);
  return {
    json: rubric ? await exportRubricJson(handle, paperId, { force: true }) : null,
    revision: rubric?.revision ?? null,
    paper: await getPaperById(handle.db, paperId),
  };
}

async function expectRefused(promise: Promise<unknown>, code: string, message: RegExp) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  expect((err as AppError).message).toMatch(message);
  return err as AppError;
}

describe.each(testDatabaseKinds())("rubric import and export on %s", (kind) => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it.skipIf(skipWithoutData)("round-trips all 20 PaperBench rubrics byte for byte", async () => {
    for (const paper of ALL_PAPERS) {
      const { files, folderName } = readPaperFolder(path.dirname(paperFile(paper, "rubric.json")));
      const result = await importPaperFolder(handle, { files, folderName, userId: null, source: "test" });
      // The id comes from config.yaml, which may differ from the folder (stochastic-interpolants).
      expect(result.paperId).toBe(readPaperText(paper, "config.yaml").match(/^id: (.+)$/m)![1]);
      const exported = await exportRubricJson(handle, result.paperId, { force: true });
      expect(Buffer.from(exported, "utf8").equals(fs.readFileSync(paperFile(paper, "rubric.json"))), paper).toBe(true);
    }
    // config.yaml gave the titles and blacklist.txt the URLs.
    const pinn = await getPaperById(handle.db, "pinn");
    expect(pinn?.title).toBe("Challenges in Training PINNs: A Loss Landscape Perspective");
    expect(pinn?.blacklist).toEqual(["https://github.com/pratikrathore8/opt_for_pinns"]);
  });

  it("creates the paper from config.yaml, then replaces its rubric as a new revision that keeps the old tree", async () => {
    const { files, folderName } = readPaperFolder(DEMO_DIR);
    const first = await importPaperFolder(handle, { files, folderName, userId: null, source: "test" });
    expect(first).toMatchObject({
      paperId: "demo-adaptive-clipping",
      createdPaper: true,
      replaced: false,
      revision: 1,
    });
    const original = await exportRubricJson(handle, first.paperId);
    expect(original).toBe(files.rubric);

    const edited = JSON.parse(files.rubric);
    edited.sub_tasks[0].weight = 7;
    edited.sub_tasks.pop();
    const second = await importRubricIntoPaper(handle, {
      paperId: first.paperId,
      rubricText: JSON.stringify(edited),
      userId: null,
      source: "test",
    });
    expect(second).toMatchObject({ replaced: true, revision: 2 });
    expect(await exportRubricJson(handle, first.paperId)).toBe(serializeRubric(edited));

    const rubric = await getRubricByPaperId(handle.db, first.paperId);
    expect(serializeRubric(await getRubricTreeAtRevision(handle.db, rubric!.id, 1))).toBe(original);
  });

  it("keeps a paper text with NUL characters (replaced by U+FFFD, reported), and refuses a rubric string the database cannot store", async () => {
    const { files } = readPaperFolder(DEMO_DIR);
    const result = await importPaperFolder(handle, {
      files: { ...files, paperMarkdown: "# Paper\u0000\u0000 text", addendum: "fine" },
      paperId: "nul-paper",
      userId: null,
      source: "t",
    });
    expect(result.notes).toEqual([
      { path: "paper.md", reason: "kept with 2 NUL characters (U+0000) replaced by U+FFFD" },
    ]);
    expect((await getPaperById(handle.db, "nul-paper"))?.paperMarkdown).toBe("# Paper\uFFFD\uFFFD text");

    const rubric = JSON.parse(files.rubric);
    rubric.sub_tasks[0].requirements = "bad \ud800 text";
    const before = await snapshot(handle, "nul-paper");
    const err = await expectRefused(
      importRubricIntoPaper(handle, {
        paperId: "nul-paper",
        rubricText: JSON.stringify(rubric),
        userId: null,
        source: "t",
      }),
      "invalid_rubric",
      /sub_tasks\[0\]\.requirements: must not contain a lone surrogate/,
    );
    expect(err.details).toEqual([
      { path: "sub_tasks[0].requirements", message: expect.stringMatching(/lone surrogate/) },
    ]);
    expect(await snapshot(handle, "nul-paper")).toEqual(before);
  });

  it("names the paper from --paper, else config.yaml, else the folder name", async () => {
    const { files } = readPaperFolder(DEMO_DIR);
    const byFlag = await importPaperFolder(handle, {
      files,
      paperId: "from-flag",
      folderName: "x",
      userId: null,
      source: "t",
    });
    expect(byFlag.paperId).toBe("from-flag");
    const byFolder = await importPaperFolder(handle, {
      files: { rubric: files.rubric },
      folderName: "from-folder",
      userId: null,
      source: "t",
    });
    expect(byFolder.paperId).toBe("from-folder");
    expect((await getPaperById(handle.db, "from-folder"))?.title).toBe("from-folder");
    await expectRefused(
      importPaperFolder(handle, {
        files: { rubric: files.rubric },
        folderName: "Bad Name!",
        userId: null,
        source: "t",
      }),
      "bad_request",
      /paper id "Bad Name!" \(from the folder name\) must be a slug/,
    );
    expect(await getPaperById(handle.db, "Bad Name!")).toBeNull();
  });

  describe("refused input leaves the database unchanged", () => {
    const paperId = "refusals";
    const valid = () => JSON.parse(fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8"));
    const cases: [string, () => string, RegExp][] = [
      ["not JSON", () => '{"id": "a",\n  "weight": }', /not a valid rubric: \(root\): .*line 2, column \d+/],
      ["an array at the root", () => "[]", /\(root\): /],
      [
        "a missing id",
        () => {
          const t = valid();
          delete t.sub_tasks[1].id;
          return JSON.stringify(t);
        },
        /sub_tasks\[1\]\.id: /,
      ],
      [
        "a string weight",
        () => {
          const t = valid();
          t.sub_tasks[2].sub_tasks[0].weight = "2";
          return JSON.stringify(t);
        },
        /sub_tasks\[2\]\.sub_tasks\[0\]\.weight: must be a number >= 0/,
      ],
      [
        "a negative weight",
        () => {
          const t = valid();
          t.sub_tasks[2].sub_tasks[0].weight = -1;
          return JSON.stringify(t);
        },
        /sub_tasks\[2\]\.sub_tasks\[0\]\.weight: must be a number >= 0/,
      ],
      [
        "sub_tasks that is not a list",
        () => {
          const t = valid();
          t.sub_tasks[0].sub_tasks = {};
          return JSON.stringify(t);
        },
        /sub_tasks\[0\]\.sub_tasks: /,
      ],
      [
        "a file over the size limit",
        () => `{"id": "x", "requirements": "${"a".repeat(10 * 1024 * 1024)}", "weight": 1, "sub_tasks": []}`,
        /limit/,
      ],
    ];

    it.each(cases)("refuses %s with a message naming the place", async (_name, make, message) => {
      const { files } = readPaperFolder(DEMO_DIR);
      if (!(await getPaperById(handle.db, paperId))) {
        await importPaperFolder(handle, { files, paperId, userId: null, source: "t" });
      }
      const before = await snapshot(handle, paperId);
      await expectRefused(
        importRubricIntoPaper(handle, { paperId, rubricText: make(), userId: null, source: "t" }),
        "invalid_rubric",
        message,
      );
      await expectRefused(
        importPaperFolder(handle, { files: { ...files, rubric: make() }, paperId, userId: null, source: "t" }),
        "invalid_rubric",
        message,
      );
      expect(await snapshot(handle, paperId)).toEqual(before);
    });

    it("refuses a broken config.yaml before writing anything", async () => {
      const { files } = readPaperFolder(DEMO_DIR);
      await expectRefused(
        importPaperFolder(handle, { files: { ...files, config: "id: [unclosed" }, userId: null, source: "t" }),
        "invalid_rubric",
        /config\.yaml/,
      );
      await expectRefused(
        importPaperFolder(handle, {
          files: { ...files, config: "id: new-paper\ntitle: 5" },
          userId: null,
          source: "t",
        }),
        "invalid_rubric",
        /title/,
      );
      expect(await getPaperById(handle.db, "new-paper")).toBeNull();
    });
  });

  it("imports PaperBench rule breaks as warnings and blocks their export unless forced", async () => {
    const draft = {
      id: "root",
      requirements: "Draft",
      weight: 1,
      sub_tasks: [
        {
          id: "leaf",
          requirements: "No category yet",
          weight: 1,
          sub_tasks: [],
          task_category: null,
          finegrained_task_category: null,
        },
        {
          id: "leaf",
          requirements: "Duplicate id",
          weight: 2,
          sub_tasks: [],
          task_category: "Code Typing",
          finegrained_task_category: null,
        },
      ],
      task_category: null,
      finegrained_task_category: null,
    };
    const result = await importPaperFolder(handle, {
      files: { rubric: JSON.stringify(draft) },
      paperId: "draft",
      userId: null,
      source: "t",
    });
    const codes = result.warnings.map((w) => w.code).sort();
    expect(codes).toEqual(
      expect.arrayContaining(["duplicate_id", "leaf_without_category", "non_uuid_id", "unknown_category"]),
    );
    const blocked = await expectRefused(
      exportRubricJson(handle, "draft"),
      "export_blocked",
      /breaks 2 PaperBench rules/,
    );
    expect(blocked.details).toHaveLength(2);
    expect(await exportRubricJson(handle, "draft", { force: true })).toBe(serializeRubric(draft));
  });
});

describe("tmp dirs", () => {
  it("are cleaned up by the PGlite test handle", async () => {
    // Its own directory, not a count of all of them: other test runs may be making theirs meanwhile.
    const handle = await openTestDatabase("pglite");
    expect(handle.location.startsWith(os.tmpdir())).toBe(true);
    expect(fs.existsSync(handle.location)).toBe(true);
    await handle.close();
    expect(fs.existsSync(handle.location)).toBe(false);
  });
});

describe("Code-Dev export", () => {
  it("keeps only Code Development leaves and the nodes above them", async () => {
    const handle = await openTestDatabase("pglite");
    try {
      const { files } = readPaperFolder(DEMO_DIR);
      await importPaperFolder(handle, { files, paperId: "cd", userId: null, source: "t" });
      const codeDev = JSON.parse(await exportRubricJson(handle, "cd", { variant: "code-dev" }));
      const leaves: { task_category: string }[] = [];
      const walk = (n: { sub_tasks: unknown[]; task_category: string }) => {
        if (n.sub_tasks.length === 0) leaves.push(n);
        else (n.sub_tasks as (typeof n)[]).forEach(walk);
      };
      walk(codeDev);
      expect(leaves.length).toBe(13);
      expect(leaves.every((l) => l.task_category === "Code Development")).toBe(true);
      expect(await exportRubricJson(handle, "cd", { variant: "code-dev" })).toBe(serializeRubric(codeDev));
    } finally {
      await handle.close();
    }
  });
});
