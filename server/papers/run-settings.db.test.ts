import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import { createPaper } from "@/db/queries/papers";
import { ensureUserByEmail } from "@/db/queries/users";
import { upsertPaperSecret } from "@/db/queries/paper-secrets";
import { sealSecret } from "@/server/secrets/seal";
import { DEFAULT_RUN_SETTINGS } from "@/lib/jobs/paper-settings";
import { errorResponse } from "@/server/http/route";
import { log } from "@/server/observability/log";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { deletePaperSecret, readReproduceSecrets, setPaperSecret } from "./paper-secrets";
import { getRunSettings, updateRunSettings } from "./run-settings";

const PAPER = "settings-paper";
const OTHER_PAPER = "settings-other-paper";
const HF_TOKEN = "hf_plain-value-that-must-never-be-stored-0123";

/** The answer a route would give for what the service threw: its status and the fields it names. */
async function refusal(promise: Promise<unknown>): Promise<{ status: number; paths: string[]; text: string }> {
  const err = await promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (e: unknown) => e,
  );
  const res = errorResponse(err);
  const text = await res.text();
  const body = JSON.parse(text) as { error: { details: { path: string }[] } };
  return { status: res.status, paths: body.error.details.map((d) => d.path), text };
}

describe.each(testDatabaseKinds())("paper run settings and secrets on %s", (kind) => {
  let handle: DbHandle;
  let userId: string;
  const savedAuthSecret = process.env.AUTH_SECRET;

  beforeAll(async () => {
    process.env.AUTH_SECRET = "run-settings-test-auth-secret-6f0c2a";
    handle = await openTestDatabase(kind);
    userId = (await ensureUserByEmail(handle.db, "staff-settings@test.rubric.studio")).id;
    for (const id of [PAPER, OTHER_PAPER]) {
      await createPaper(
        handle.db,
        { id, title: id, paperMarkdown: "", addendum: "", judgeAddendum: "", blacklist: [] },
        userId,
      );
    }
  });
  afterAll(async () => {
    await handle?.close();
    if (savedAuthSecret === undefined) delete process.env.AUTH_SECRET;
    else process.env.AUTH_SECRET = savedAuthSecret;
  });

  it("answers the defaults for a paper with no settings", async () => {
    expect(await getRunSettings(handle.db, PAPER)).toEqual({ ...DEFAULT_RUN_SETTINGS, secretNames: [] });
  });

  it("stores an update and answers it, for this paper only", async () => {
    const settings = {
      timeoutS: 3600,
      gpus: 2,
      network: true,
      salvageRetryBelowS: 600,
      diskLimitMiB: 2048,
      memoryLimitMiB: 4096,
      processLimit: 256,
    };
    expect(await updateRunSettings(handle, { paperId: PAPER, settings, userId })).toEqual({
      ...settings,
      secretNames: [],
    });
    expect(await getRunSettings(handle.db, PAPER)).toEqual({ ...settings, secretNames: [] });
    expect(
      await updateRunSettings(handle, { paperId: PAPER, settings: { ...settings, gpus: 1 }, userId }),
    ).toMatchObject({ gpus: 1, timeoutS: 3600 });
    expect(await getRunSettings(handle.db, OTHER_PAPER)).toEqual({ ...DEFAULT_RUN_SETTINGS, secretNames: [] });
  });

  it("gives limits left out of an update their defaults", async () => {
    const settings = { timeoutS: 60, gpus: 0, network: false, salvageRetryBelowS: 0 };
    expect(await updateRunSettings(handle, { paperId: OTHER_PAPER, settings, userId })).toEqual({
      ...DEFAULT_RUN_SETTINGS,
      ...settings,
      secretNames: [],
    });
    await updateRunSettings(handle, { paperId: OTHER_PAPER, settings: DEFAULT_RUN_SETTINGS, userId });
  });

  it("refuses bad settings with a 400 naming the field, and keeps the stored ones", async () => {
    const before = await getRunSettings(handle.db, PAPER);
    const good = { timeoutS: 3600, gpus: 1, network: false, salvageRetryBelowS: 0 };
    for (const [field, bad] of [
      ["timeoutS", 0],
      ["timeoutS", 1.5],
      ["gpus", -1],
      ["network", "yes"],
      ["salvageRetryBelowS", 99 * 3600],
      ["diskLimitMiB", 10],
      ["memoryLimitMiB", 1.5],
      ["processLimit", 0],
      ["processLimit", "many"],
    ] as const) {
      const answer = await refusal(
        updateRunSettings(handle, { paperId: PAPER, settings: { ...good, [field]: bad } as never, userId }),
      );
      expect(answer.status, field).toBe(400);
      expect(answer.paths, field).toEqual([field]);
    }
    expect(await getRunSettings(handle.db, PAPER)).toEqual(before);
  });

  it("sets, replaces and deletes secrets; members' answers carry names only", async () => {
    await setPaperSecret(handle, { paperId: PAPER, name: "HF_TOKEN", value: HF_TOKEN, userId });
    await setPaperSecret(handle, { paperId: PAPER, name: "WANDB_API_KEY", value: "wandb-1", userId });
    const view = await getRunSettings(handle.db, PAPER);
    expect(view.secretNames).toEqual(["HF_TOKEN", "WANDB_API_KEY"]);
    expect(JSON.stringify(view)).not.toContain(HF_TOKEN);
    expect(await readReproduceSecrets(handle.db, PAPER)).toEqual({ HF_TOKEN, WANDB_API_KEY: "wandb-1" });

    await setPaperSecret(handle, { paperId: PAPER, name: "WANDB_API_KEY", value: "wandb-2 ünï 🔑", userId });
    expect(await readReproduceSecrets(handle.db, PAPER)).toEqual({ HF_TOKEN, WANDB_API_KEY: "wandb-2 ünï 🔑" });

    await deletePaperSecret(handle, { paperId: PAPER, name: "WANDB_API_KEY" });
    expect(await readReproduceSecrets(handle.db, PAPER)).toEqual({ HF_TOKEN });
    expect((await getRunSettings(handle.db, PAPER)).secretNames).toEqual(["HF_TOKEN"]);
    expect(await readReproduceSecrets(handle.db, OTHER_PAPER)).toEqual({});

    const missing = await refusal(deletePaperSecret(handle, { paperId: PAPER, name: "WANDB_API_KEY" }));
    expect(missing.status).toBe(404);
  });

  it("stores the value sealed, never in plain text", async () => {
    const { rows } = await handle.db.execute<{ sealed_value: string }>(
      sql`SELECT sealed_value FROM paper_secrets WHERE paper_id = ${PAPER} AND name = 'HF_TOKEN'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].sealed_value).toMatch(/^v1\./);
    expect(rows[0].sealed_value).not.toContain(HF_TOKEN);
    expect(rows[0].sealed_value).not.toContain("plain-value");
  });

  it("cannot open a secret once AUTH_SECRET changed, and says which one to set again without its value", async () => {
    const authSecret = process.env.AUTH_SECRET;
    process.env.AUTH_SECRET = "a-different-auth-secret-after-rotation";
    try {
      const answer = await refusal(readReproduceSecrets(handle.db, PAPER));
      expect(answer.status).toBe(409);
      expect(answer.text).toContain("HF_TOKEN");
      expect(answer.text).not.toContain(HF_TOKEN);
    } finally {
      process.env.AUTH_SECRET = authSecret;
    }
    expect(await readReproduceSecrets(handle.db, PAPER)).toEqual({ HF_TOKEN });
  });

  it("refuses bad names and values with a 400 naming the field, quoting no value, storing nothing", async () => {
    const cases: [name: string, value: string, field: string][] = [
      ["hf_token", "x", "name"],
      ["1TOKEN", "x", "name"],
      ["HF-TOKEN", "x", "name"],
      ["A".repeat(65), "x", "name"],
      ["", "x", "name"],
      ["EMPTY", "", "value"],
      ["NUL_IN_IT", "sec\u0000ret-nul-value", "value"],
      ["TOO_LONG", "s".repeat(16 * 1024 + 1), "value"],
      // 16 KiB counted in UTF-8 bytes, not characters.
      ["TOO_LONG_UTF8", "é".repeat(8 * 1024 + 1), "value"],
    ];
    for (const [name, value, field] of cases) {
      const answer = await refusal(setPaperSecret(handle, { paperId: PAPER, name, value, userId }));
      expect(answer.status, name).toBe(400);
      expect(answer.paths, name).toEqual([field]);
      if (value.length > 1) expect(answer.text, name).not.toContain(value);
    }
    // Names that change how programs load or run, and the job's own, are refused with the rule named.
    for (const name of [
      "PATH",
      "HOME",
      "TMPDIR",
      "LD_PRELOAD",
      "LD_LIBRARY_PATH",
      "BASH_ENV",
      "ENV",
      "PYTHONPATH",
      "PYTHONHOME",
      "NODE_OPTIONS",
      "PERL5OPT",
      "RUBYOPT",
      "JAVA_TOOL_OPTIONS",
      "GIT_ASKPASS",
      "IFS",
      "PS4",
      "GCONV_PATH",
      "CUDA_VISIBLE_DEVICES",
      "DOCKER_HOST",
    ]) {
      const answer = await refusal(setPaperSecret(handle, { paperId: PAPER, name, value: "plain-value", userId }));
      expect(answer.status, name).toBe(400);
      expect(answer.paths, name).toEqual(["name"]);
      expect(answer.text, name).toContain(`is reserved: ${name} cannot be a secret because`);
      expect(answer.text, name).not.toContain("plain-value");
    }
    await setPaperSecret(handle, { paperId: PAPER, name: "EXACTLY_16_KIB", value: "s".repeat(16 * 1024), userId });
    expect((await getRunSettings(handle.db, PAPER)).secretNames).toEqual(["EXACTLY_16_KIB", "HF_TOKEN"]);
    const badDelete = await refusal(deletePaperSecret(handle, { paperId: PAPER, name: "bad name" }));
    expect(badDelete.status).toBe(400);
    expect(badDelete.paths).toEqual(["name"]);
  });

  it("drops a secret stored under a reserved name before the rule from the job, with a log line, and lets staff delete it", async () => {
    // As a secret set before the rule was stored: straight into the table, sealed.
    for (const name of ["LD_PRELOAD", "PATH"])
      await upsertPaperSecret(handle.db, {
        paperId: OTHER_PAPER,
        name,
        sealedValue: sealSecret("/tmp/evil.so"),
        updatedBy: userId,
      });
    await setPaperSecret(handle, { paperId: OTHER_PAPER, name: "HF_TOKEN", value: HF_TOKEN, userId });
    const warned = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    try {
      expect(await readReproduceSecrets(handle.db, OTHER_PAPER)).toEqual({ HF_TOKEN });
      const calls = warned.mock.calls as unknown as [Record<string, unknown>, string][];
      expect(calls.map(([fields, message]) => ({ ...fields, message }))).toEqual([
        {
          paperId: OTHER_PAPER,
          secretName: "LD_PRELOAD",
          message: expect.stringContaining("the secret LD_PRELOAD is not passed to the paper's jobs"),
        },
        { paperId: OTHER_PAPER, secretName: "PATH", message: expect.stringContaining("the secret PATH is not passed") },
      ]);
      expect(JSON.stringify(calls)).not.toContain("/tmp/evil.so");
    } finally {
      warned.mockRestore();
    }
    await deletePaperSecret(handle, { paperId: OTHER_PAPER, name: "LD_PRELOAD" });
    await deletePaperSecret(handle, { paperId: OTHER_PAPER, name: "PATH" });
    expect((await getRunSettings(handle.db, OTHER_PAPER)).secretNames).toEqual(["HF_TOKEN"]);
  });
});
