/**
 * Command line for bulk work, on the same database settings as the studio (DATABASE_URL, else the
 * embedded DATA_DIR, which it locks: it refuses to run while the studio holds it).
 *
 *   npm run rubric -- import <rubric.json | paper-dir>... [--paper <id>]
 *   npm run rubric -- export <paper-id> [--out <file>] [--force]
 *   npm run user -- add <email> [--staff] [--name <name>]   (password read from STUDIO_PASSWORD or stdin;
                                                          an invited member gets the password)
 *   npm run user -- password <email>                     (new password as for add; signs the user out everywhere, API tokens too)
 *   npm run user -- disable|enable <email>               (disabling signs the user out everywhere, API tokens too)
 *   npm run user -- sign-out <email>                     (ends every session of the user)
 *   npm run user -- token <email> [--name <label>]       (a new personal API token: only the token, on stdout)
 *   npm run demo -- delete                               (deletes the demo seed's users, papers and agents, and all that hangs off them)
 *   npm run grading -- eval <human.json> <judge.json>        (JudgeEval metrics of two graded trees; no database)
 *   npm run grading -- import <graded.json> --paper <id> --agent <name> --run <n> [--human] [--variant code-dev]
 *                                [--submission <archive.tar.gz | .zip | dir>]
 */
import fs from "node:fs";
import { parseArgs } from "node:util";
import { DataDirLockedError } from "@/db/data-dir-lock";
import { openDatabase, type DbHandle } from "@/db/client";
import { readServerEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { evaluateGradedFiles, formatJudgeEvalSummary } from "@/lib/grading/judge-eval";
import { deleteDemo } from "@/server/demo/delete-demo";
import { exportRubricJson } from "@/server/papers/export";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { addPasswordUser } from "@/server/users/add-password-user";
import { createApiToken } from "@/server/users/api-tokens";
import { changePassword } from "@/server/users/change-password";
import { findUserByEmail } from "@/server/users/find-user";
import { signOutEverywhere } from "@/server/users/sessions";
import { setDisabled } from "@/server/users/set-disabled";
import { newCredentialsProblems, passwordProblem } from "@/lib/auth/password-rules";
import { formatIssue } from "@/lib/rubric/paperbench";
import type { RubricIssue } from "@/lib/rubric/types";
import { importGradingCommand } from "./grading-import";

class UsageError extends Error {}

const USAGE = `usage:
  npm run rubric -- import <rubric.json | paper-dir>... [--paper <id>]
  npm run rubric -- export <paper-id> [--out <file>] [--force]
  npm run user -- add <email> [--staff] [--name <name>]
  npm run user -- password <email>
  npm run user -- disable|enable|sign-out <email>
  npm run user -- token <email> [--name <label>]
  npm run demo -- delete
  npm run grading -- eval <human.json> <judge.json>
  npm run grading -- import <graded.json> --paper <id> --agent <name> --run <n> [--human] [--variant code-dev] [--submission <archive | dir>]`;

async function main(argv: string[]): Promise<number> {
  const [group, command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      paper: { type: "string" },
      out: { type: "string" },
      force: { type: "boolean", default: false },
      staff: { type: "boolean", default: false },
      name: { type: "string" },
      agent: { type: "string" },
      run: { type: "string" },
      human: { type: "boolean", default: false },
      variant: { type: "string" },
      submission: { type: "string" },
    },
  });
  const commands: Record<string, () => Promise<number>> = {
    "rubric import": () => importCommand(positionals, values.paper),
    "rubric export": () => exportCommand(positionals, values.out, values.force),
    "user add": () => addUserCommand(positionals, values.staff, values.name),
    "user password": () => passwordCommand(positionals),
    "user disable": () => userSessionsCommand("disable", positionals),
    "user enable": () => userSessionsCommand("enable", positionals),
    "user sign-out": () => userSessionsCommand("sign-out", positionals),
    "user token": () => userTokenCommand(positionals, values.name),
    "demo delete": () => deleteDemoCommand(positionals),
    "grading eval": () => gradingEvalCommand(positionals),
    "grading import": () =>
      importGradingCommand(positionals, values, withDatabase, (message) => new UsageError(message)),
  };
  const run = commands[`${group} ${command}`];
  if (!run) throw new UsageError(`unknown command "${[group, command].filter(Boolean).join(" ")}"`);
  return run();
}

async function withDatabase<T>(fn: (handle: DbHandle) => Promise<T>): Promise<T> {
  const handle = await openDatabase({ databaseUrl: readServerEnv().DATABASE_URL });
  try {
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

async function importCommand(targets: string[], paperId: string | undefined): Promise<number> {
  if (targets.length === 0) throw new UsageError("import needs a rubric.json or a paper folder");
  if (paperId && targets.length > 1) throw new UsageError("--paper names one paper: import one path with it");
  // Read and parse every target before opening the database, so a typo costs nothing.
  const sources = targets.map((target) => ({ target, ...readPaperFolder(target) }));
  let failures = 0;
  await withDatabase(async (store) => {
    const started = performance.now();
    let nodes = 0;
    for (const { target, files, folderName } of sources) {
      try {
        // The same service as the studio's upload: editors following the rubric hear of the import.
        const result = await importPaperFolder(store, {
          files,
          folderName,
          paperId,
          userId: null,
          source: `cli:${target}`,
        });
        nodes += result.stats.nodes;
        const verb = result.createdPaper ? "created paper" : result.replaced ? "replaced rubric of" : "imported into";
        console.log(
          `${target}: ${verb} ${result.paperId} — ${result.stats.nodes} nodes, revision ${result.revision}` +
            (result.warnings.length ? `, ${result.warnings.length} warning(s)` : ""),
        );
        for (const w of result.warnings.slice(0, 20)) console.log(`  warning ${w.path}: ${w.message}`);
        if (result.warnings.length > 20) console.log(`  … and ${result.warnings.length - 20} more warnings`);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        failures++;
        console.error(`${target}: ${err.message}`);
        for (const d of err.details.slice(0, 50) as RubricIssue[]) console.error(`  ${formatIssue(d)}`);
      }
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    console.log(
      `${sources.length - failures} of ${sources.length} imported (${nodes} nodes) into ${store.location} in ${seconds} s`,
    );
  });
  return failures > 0 ? 1 : 0;
}

async function exportCommand(positionals: string[], out: string | undefined, force: boolean): Promise<number> {
  const [paperId] = positionals;
  if (!paperId || positionals.length > 1) throw new UsageError("export takes one paper id");
  try {
    const json = await withDatabase((store) => exportRubricJson(store, paperId, { force }));
    if (out) {
      fs.writeFileSync(out, json);
      console.error(`wrote ${out} (${Buffer.byteLength(json)} bytes)`);
    } else {
      // Wait for the pipe to drain: exiting with a write pending truncates the output at 64 KiB.
      await new Promise<void>((resolve, reject) =>
        process.stdout.write(json, (err) => (err ? reject(err) : resolve())),
      );
    }
    return 0;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    console.error(`${paperId}: ${err.message}`);
    for (const d of err.details.slice(0, 50) as RubricIssue[]) console.error(`  ${formatIssue(d)}`);
    return 1;
  }
}

async function addUserCommand(positionals: string[], staff: boolean, name: string | undefined): Promise<number> {
  const [email] = positionals;
  if (!email || positionals.length > 1) throw new UsageError("user add takes one email");
  const password = process.env.STUDIO_PASSWORD ?? fs.readFileSync(0, "utf8").trim();
  // Checked before the database is opened; the service applies the same rule to every caller.
  const problems = newCredentialsProblems({ email, password });
  if (problems.length > 0) throw new UsageError(problems.map((p) => p.message).join("\n"));
  const added = await withDatabase((store) => addPasswordUser(store, { email, name, password, isStaff: staff })).catch(
    (err: unknown) => {
      // An email that already has a password is a usage mistake (exit 2), as before.
      if (err instanceof AppError && err.code === "conflict") throw new UsageError(err.message);
      throw err;
    },
  );
  // A member invited by email has a row but no password yet: they got one.
  const verb = added === "invited" ? "set the password of invited" : "added";
  console.log(`${verb} ${staff ? "staff user" : "user"} ${email}`);
  return 0;
}

/** A new password for a user (read like `user add`'s); every session of theirs ends. */
async function passwordCommand(positionals: string[]): Promise<number> {
  const [email] = positionals;
  if (!email || positionals.length > 1) throw new UsageError("user password takes one email");
  const password = process.env.STUDIO_PASSWORD ?? fs.readFileSync(0, "utf8").trim();
  // Checked before the database is opened; the service applies the same rule.
  const problem = passwordProblem(password);
  if (problem) throw new UsageError(`the password ${problem}`);
  const { endedSessions, endedTokens } = await withDatabase((store) =>
    changePassword(store, { email, password }),
  ).catch(userNotFound(email));
  console.log(`changed the password of ${email}; ended ${endedSessions} session(s) and ${endedTokens} API token(s)`);
  return 0;
}

/** Disable, enable, or sign out everywhere a user named by email. */
async function userSessionsCommand(action: "disable" | "enable" | "sign-out", positionals: string[]): Promise<number> {
  const [email] = positionals;
  if (!email || positionals.length > 1) throw new UsageError(`user ${action} takes one email`);
  const message = await withDatabase(async (store) => {
    const user = await findUserByEmail(store, email);
    if (action === "sign-out") {
      const { ended, endedTokens } = await signOutEverywhere(store, user.id);
      return `ended ${ended} session(s) and ${endedTokens} API token(s) of ${email}`;
    }
    await setDisabled(store, { userId: user.id, disabled: action === "disable", by: null });
    return `${action}d ${email}${action === "disable" ? "; every session and API token of theirs ended" : ""}`;
  }).catch(userNotFound(email));
  console.log(message);
  return 0;
}

/** A new personal API token of a user, printed alone on stdout (for `STUDIO_TOKEN=$(npm run -s user -- token …)`). */
async function userTokenCommand(positionals: string[], name: string | undefined): Promise<number> {
  const [email] = positionals;
  if (!email || positionals.length > 1) throw new UsageError("user token takes one email");
  const { token } = await withDatabase(async (store) => {
    const user = await findUserByEmail(store, email);
    return createApiToken(store, { userId: user.id, name: name ?? "CLI" });
  }).catch(userNotFound(email));
  await new Promise<void>((resolve, reject) =>
    process.stdout.write(`${token}\n`, (err) => (err ? reject(err) : resolve())),
  );
  return 0;
}

/** Deletes the demo, as staff's "Delete demo…" does; the studio must not hold the embedded database. */
async function deleteDemoCommand(positionals: string[]): Promise<number> {
  if (positionals.length > 0) throw new UsageError("demo delete takes no arguments");
  const deleted = await withDatabase((store) => deleteDemo(store)).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "not_found") return null;
    throw err;
  });
  console.log(
    deleted
      ? `deleted the demo: ${deleted.users} user(s), ${deleted.papers} paper(s), ${deleted.agents} agent(s)`
      : "there is no demo data to delete",
  );
  return 0;
}

/** An unknown email is a usage mistake (exit 2). */
function userNotFound(email: string) {
  return (err: unknown): never => {
    if (err instanceof AppError && err.code === "not_found") throw new UsageError(`no user with email ${email}`);
    throw err;
  };
}

/** JudgeEval of two graded files (bare trees or judge outputs), matched by leaf id: JSON on stdout. */
async function gradingEvalCommand(positionals: string[]): Promise<number> {
  if (positionals.length !== 2)
    throw new UsageError("grading eval takes two files: the human grading, then the judge's");
  const files: { name: string; text: string }[] = [];
  for (const name of positionals) {
    try {
      files.push({ name, text: fs.readFileSync(name, "utf8") });
    } catch (err) {
      console.error(`${name}: cannot read the file (${err instanceof Error ? err.message : String(err)})`);
      return 1;
    }
  }
  const result = evaluateGradedFiles(files[0], files[1]);
  if (!result.ok) {
    for (const line of result.errors.slice(0, 50)) console.error(line);
    return 1;
  }
  for (const note of result.notes) console.error(`note: ${note}`);
  const json = formatJudgeEvalSummary(result.report);
  await new Promise<void>((resolve, reject) => process.stdout.write(json, (err) => (err ? reject(err) : resolve())));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UsageError) console.error(`${err.message}\n${USAGE}`);
    else if (err instanceof DataDirLockedError) console.error(err.message);
    else if (err instanceof Error && /no such file|has no rubric\.json/.test(err.message)) console.error(err.message);
    else console.error(err);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
