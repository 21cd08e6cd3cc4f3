import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { acquireDataDirLock } from "@/db/data-dir-lock";
import { ensureUserByEmail, getUserByEmail } from "@/db/queries/users";
import { paperFile, skipWithoutData } from "@/lib/rubric/paperbench-data.testutil";
import { testDatabaseKinds } from "@/test/databases";
import { cliEnvironment, runCli } from "./cli.testutil";

const DEMO_DIR = path.join(process.cwd(), "rubrics", "demo");
const DEMO_RUBRIC = fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8");

describe.each(testDatabaseKinds())("rubric CLI on %s", (kind) => {
  const env = cliEnvironment(kind, "cli");

  const cli = (...args: string[]) => runCli(env, ...args);

  it("imports a paper folder, creating the paper, and exports the same bytes", () => {
    const imported = cli("rubric", "import", DEMO_DIR);
    expect(imported.stderr).toBe("");
    expect(imported.status).toBe(0);
    expect(imported.stdout).toMatch(/created paper demo-adaptive-clipping — 33 nodes, revision 1/);

    const out = path.join(env.DATA_DIR!, "out.json");
    expect(cli("rubric", "export", "demo-adaptive-clipping", "--out", out).status).toBe(0);
    expect(fs.readFileSync(out, "utf8")).toBe(DEMO_RUBRIC);
  });

  it("refuses an invalid rubric with exit code 1, the JSON path, and nothing written", () => {
    const bad = JSON.parse(DEMO_RUBRIC);
    bad.sub_tasks[2].sub_tasks[0].weight = -3;
    const file = path.join(env.DATA_DIR!, "bad.json");
    fs.writeFileSync(file, JSON.stringify(bad));
    const refused = cli("rubric", "import", file, "--paper", "demo-adaptive-clipping");
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("sub_tasks[2].sub_tasks[0].weight: must be a number >= 0");
    const exported = cli("rubric", "export", "demo-adaptive-clipping");
    expect(exported.stdout).toBe(DEMO_RUBRIC);
  });

  it("exits 1 with a message for a missing paper or file, and 2 for bad usage", () => {
    const missing = cli("rubric", "export", "no-such-paper");
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('The paper "no-such-paper" has no rubric yet');
    const noFile = cli("rubric", "import", path.join(env.DATA_DIR!, "nope.json"));
    expect(noFile.status).toBe(1);
    expect(noFile.stderr).toContain("no such file or directory");
    const usage = cli("rubric", "frobnicate");
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("usage:");
  });

  it("adds a user with a password, gives an invited member one, and refuses a second", async () => {
    const add = (email: string, ...flags: string[]) =>
      runCli({ ...env, STUDIO_PASSWORD: "a long password" }, "user", "add", email, ...flags);
    expect(add("new@example.org", "--staff").stdout).toContain("added staff user new@example.org");
    const again = add("new@example.org");
    expect(again.status).toBe(2);
    expect(again.stderr).toContain("already exists and has a password");

    // Staff added this member by email before they had an account.
    const handle = await openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR! });
    await ensureUserByEmail(handle.db, "invited@example.org");
    await handle.close();
    expect(add("invited@example.org").stdout).toContain("set the password of invited user invited@example.org");
    expect(add("invited@example.org").status).toBe(2);
  });

  it("refuses to add a user with a bad email or a weak password, saying which (exit 2), and adds nobody", async () => {
    const add = (email: string, password: string) =>
      runCli({ ...env, STUDIO_PASSWORD: password }, "user", "add", email);
    // Both problems at once (eight spaces, as `user add` used to take), then a common password.
    const cases = [
      [
        "not-an-email",
        "        ",
        [
          'the email must be an email address like name@example.org (got "not-an-email")',
          "the password must have at least 12 characters (it has 8)",
        ],
      ],
      ["weak@example.org", "password1234", ["the password is one of the most common passwords"]],
    ] as const;
    for (const [email, password, messages] of cases) {
      const refused = add(email, password);
      expect([email, refused.status]).toEqual([email, 2]);
      for (const message of messages) expect(refused.stderr).toContain(message);
    }
    const handle = await openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR! });
    for (const [email] of cases) expect(await getUserByEmail(handle.db, email)).toBeNull();
    await handle.close();
  });

  it.skipIf(skipWithoutData)("writes a 2.3 MB export to a pipe in full (pinn)", () => {
    const dir = path.dirname(paperFile("pinn", "rubric.json"));
    expect(cli("rubric", "import", dir).status).toBe(0);
    const exported = cli("rubric", "export", "pinn");
    expect(exported.status).toBe(0);
    expect(Buffer.from(exported.stdout).equals(fs.readFileSync(paperFile("pinn", "rubric.json")))).toBe(true);
  });
});

describe("rubric CLI and the embedded database lock", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rubric-studio-cli-lock-"));
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" };
  const cli = (...args: string[]) => runCli(env, ...args);
  beforeAll(() => {
    expect(cli("rubric", "import", DEMO_DIR).status).toBe(0);
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("refuses to open the embedded database while another process holds it", () => {
    // This test process plays the running studio.
    const release = acquireDataDirLock(dataDir);
    try {
      const locked = cli("rubric", "export", "demo-adaptive-clipping");
      expect(locked.status).toBe(1);
      expect(locked.stderr).toContain(`is in use by process ${process.pid}`);
      expect(locked.stdout).toBe("");
    } finally {
      release();
    }
    expect(cli("rubric", "export", "demo-adaptive-clipping").status).toBe(0);
  });
});
