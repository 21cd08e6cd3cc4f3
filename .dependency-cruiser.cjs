/**
 * The layers of ARCHITECTURE.md, enforced (`npm run lint:layers`, run by `npm test`).
 *
 *   app, scripts  →  server  →  db  →  lib
 *   components    →  lib
 *   runner        →  lib
 *
 * Root files: `auth.ts`, `instrumentation.ts` and `proxy.ts` belong to the server layer (they open
 * sessions, start the studio, answer signed-out visitors from a copy); `auth.config.ts` is edge-safe configuration. Tests, e2e specs, benchmarks and
 * test helpers (`*.testutil.ts`, `test/`) may reach any layer, but production code never imports them.
 *
 * Each of lib/, runner/ and components/ also has its npm packages listed (LIB_PACKAGES, RUNNER_PACKAGES,
 * SERVER_PACKAGES below), and server/'s folders have tiers and levels (SERVER_TIERS). Folder-level cycles
 * elsewhere, which no rule here can express, are refused by
 * `scripts/check-folder-cycles.mjs`; `test/layers/probe.test.ts` proves the rules refuse what they say.
 */
/** Opening the database (not reading or writing it): the client factory and PGlite's data directory. */
const DB_INFRA = "db/(client|pglite-template|migrations-folder|data-dir-lock)\\.ts$";
const SERVER = "^(server/|auth\\.ts$|instrumentation\\.ts$|proxy\\.ts$)";
const TEST = "(\\.test\\.tsx?$|\\.testutil\\.tsx?$|^test/|^e2e/|^bench/)";

/** Node built-ins that do I/O: the domain in lib/ runs in the browser too. */
const IO_BUILTINS =
  "^(node:)?(fs|fs/promises|child_process|net|http|https|http2|tls|dgram|dns|os|worker_threads|cluster|zlib|stream|stream/promises|readline|vm|process)$";

/**
 * npm packages, as dependency-cruiser sees them: the resolved file under `node_modules/<name>/`
 * (or its `@types/<name>/` declarations). A name may be a regex (`@aws-sdk/[^/]+`, `next/server`).
 */
function packages(names) {
  return `^node_modules/(@types/)?(${names.join("|")})(/|\\.|$)`;
}

/**
 * ALLOW-list (the set is small and pure, so a new package is a deliberate edit here): what lib/
 * imports from npm. Parsers, a schema library, a tokenizer, ordering keys, a diff: nothing that
 * opens a socket, a file or a database, so the domain stays runnable in the browser and in tests.
 */
const LIB_PACKAGES = [
  "zod",
  "yaml",
  "jsonc-parser",
  "p-limit",
  "gpt-tokenizer",
  "fractional-indexing",
  "diff-match-patch",
  "@zxcvbn-ts/language-common",
];

/** ALLOW-list (small): the runner speaks HTTP with zod contracts, unpacks archives and logs JSON lines; Node built-ins are its own. */
const RUNNER_PACKAGES = [
  "zod",
  "tar-stream",
  "yauzl",
  "pino",
  // The kubernetes backend (runner/backends/kubernetes.ts) creates, watches, execs into and deletes each job's pod.
  "@kubernetes/client-node",
];

/**
 * DENY-list (components/ use many browser packages: React, charts, markdown, icons, so an allow-list
 * would churn with every UI change): the packages that only work on the server, or hold its secrets.
 */
const SERVER_PACKAGES = [
  "pg",
  "@electric-sql/pglite",
  "drizzle-orm",
  "drizzle-kit",
  "openai",
  "@aws-sdk/[^/]+",
  "@node-rs/[^/]+",
  "server-only",
  "next-auth",
  "next/(server|headers|cache)",
  "tar-stream",
  "yauzl",
  "@kubernetes/[^/]+",
  "kubernetes-models",
  "@kubernetes-models/[^/]+",
  "s3rver",
  "tsx",
  "pino",
];

/**
 * server/ in tiers, each tier in levels, lowest first (ARCHITECTURE.md, "server/ tiers"):
 *
 *   platform   knows no feature: the route wrapper, sign-in, the live feed, the inbox, blobs, jobs
 *   domain     the features, one folder each
 *   workflows  what runs features together: evaluations, the leaderboard, the demo seed, start-up
 *
 * A folder imports the lower levels of its own tier and every lower tier; never a folder of its own
 * level, nor anything above. So server/ has no folder-level cycle, and each folder can be read, moved
 * and tested over the ones below it. A lower folder that must set off a higher one takes a callback
 * from its caller (`SubmissionUploadWorkflow`) or publishes an event the higher one subscribes to;
 * shared pure logic goes down to lib/. Files right in server/ are named (`store.ts`, `startup.ts`).
 */
const SERVER_TIERS = [
  [
    "platform",
    [
      ["observability", "store.ts", "lifecycle"],
      ["access", "blobs", "jobs"],
      ["live"],
      ["auth", "notifications"],
      ["runners"],
      ["http", "secrets", "metrics"],
    ],
  ],
  ["domain", [["users", "rubrics"], ["comments", "papers"], ["submissions"], ["gradings"], ["reviews", "judge"]]],
  ["workflows", [["evaluations", "seed", "reproductions"], ["leaderboard", "demo", "job-platform.ts"], ["startup.ts"]]],
];

function serverFolderPath(name) {
  return name.endsWith(".ts") ? `^server/${name.replace(".", "\\.")}$` : `^server/${name}/`;
}

/** One error rule per server/ folder: what is at its level (but itself) or above it is refused. */
function serverTierRules() {
  const order = SERVER_TIERS.flatMap(([tier, levels], t) =>
    levels.flatMap((names, level) => names.map((name) => ({ tier, t, level, name }))),
  );
  return order
    .map((folder) => ({
      ...folder,
      refused: order.filter(
        (o) => o.name !== folder.name && (o.t > folder.t || (o.t === folder.t && o.level >= folder.level)),
      ),
    }))
    .filter(({ refused }) => refused.length > 0)
    .map(({ tier, t, level, name, refused }) => {
      const below = SERVER_TIERS.slice(0, t).map(([lower]) => lower);
      return {
        name: `server-tier-${name.replace(".ts", "")}`,
        comment:
          `server/${name} is ${tier}, level ${level + 1}: it imports only the lower levels of ${tier}` +
          `${below.length ? ` and the ${below.join(" and ")} tier${below.length > 1 ? "s" : ""}` : ""}` +
          " (see SERVER_TIERS; invert the import with a callback or an event, or move the file or its pure logic down)",
        severity: "error",
        from: { path: serverFolderPath(name), pathNot: TEST },
        to: {
          path: `(${refused.map((o) => serverFolderPath(o.name)).join("|")})`,
        },
      };
    });
}

function layer(name, from, allowed, comment, ignoredTypes = []) {
  return {
    name,
    comment,
    severity: "error",
    from: { path: from, pathNot: TEST },
    to: { pathNot: `^(${allowed.join("|")})|^node_modules/|${TEST}`, dependencyTypesNot: ["core", ...ignoredTypes] },
  };
}

module.exports = {
  forbidden: [
    layer("lib-is-pure", "^lib/", ["lib/"], "lib/ is the domain, shared by browser and server: it imports lib/ only"),
    {
      name: "lib-does-no-io",
      comment: "lib/ runs in the browser too: no file system, processes or network (those live in server/)",
      severity: "error",
      from: { path: "^lib/", pathNot: TEST },
      to: { dependencyTypes: ["core"], path: IO_BUILTINS },
    },
    {
      name: "lib-packages-are-pure",
      comment:
        "lib/ imports only the pure npm packages of LIB_PACKAGES (no database, network, cloud SDK, auth, server-only or Next.js): add one there only if it does no I/O",
      severity: "error",
      from: { path: "^lib/", pathNot: TEST },
      to: { path: "^node_modules/", pathNot: packages(LIB_PACKAGES) },
    },
    layer(
      "db-is-sql-only",
      "^db/",
      ["db/", "lib/"],
      "db/ holds the schema, the client and SQL repositories: it imports lib/ (types, errors) only",
    ),
    layer(
      "server-uses-db-and-lib",
      SERVER,
      ["server/", "db/", "lib/", "auth\\.ts$", "auth\\.config\\.ts$"],
      "server/ holds the use cases: it imports db/ and lib/",
    ),
    layer(
      "components-use-lib",
      "^components/",
      ["components/", "lib/"],
      "components/ are React; they reach the server over HTTP (or as props from a page), never by import",
    ),
    layer(
      "app-uses-server",
      "^app/",
      ["app/", "server/", "components/", "lib/", "auth\\.ts$"],
      "routes and pages call services in server/, never repositories in db/ directly",
      ["type-only"],
    ),
    layer(
      "scripts-use-server",
      "^scripts/",
      ["scripts/", "server/", "lib/", DB_INFRA],
      "the CLI calls services, so it announces like the UI (it may open the database)",
    ),
    layer(
      "submission-cli-is-http-only",
      "^scripts/(submission-cli|studio-http)\\.ts$",
      ["lib/", "server/submissions/pack-directory\\.ts$", "scripts/studio-http\\.ts$"],
      "the submission CLI and its HTTP client talk to a running studio with a token: no database, no server code but the directory packer (plain Node, shared with the demo seed)",
    ),
    layer(
      "runner-uses-lib",
      "^runner/",
      ["runner/", "lib/"],
      "the runner talks HTTP to the studio: no database, no server code",
    ),
    {
      name: "runner-packages",
      comment:
        "the runner imports only the npm packages of RUNNER_PACKAGES: no database driver, no drizzle, no Next.js, React or next-auth (it runs on a GPU machine and talks HTTP)",
      severity: "error",
      from: { path: "^runner/", pathNot: TEST },
      to: { path: "^node_modules/", pathNot: packages(RUNNER_PACKAGES) },
    },
    {
      name: "components-use-no-node-builtins",
      comment: "components/ run in the browser: no node:* built-in at all (the server reads files and processes)",
      severity: "error",
      from: { path: "^components/", pathNot: TEST },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "components-use-no-server-packages",
      comment:
        "components/ run in the browser: none of SERVER_PACKAGES (database, drizzle, SDKs, password hashing, server-only, next-auth, next/server); data comes over HTTP or as props",
      severity: "error",
      from: { path: "^components/", pathNot: TEST },
      to: { path: packages(SERVER_PACKAGES) },
    },
    {
      name: "app-names-db-types-only",
      comment: "app/ may name database row types (type-only imports of db/schema and db/client), nothing else of db/",
      severity: "error",
      from: { path: "^app/", pathNot: TEST },
      to: { path: "^db/", pathNot: "^db/(schema|client)\\.ts$" },
    },
    {
      name: "sql-only-in-db",
      comment: "queries live in db/ repositories: nothing else imports drizzle-orm or a table (row types are fine)",
      severity: "error",
      from: { pathNot: `^db/|${TEST}` },
      to: { path: "^node_modules/drizzle-orm/|^db/schema\\.ts$", dependencyTypesNot: ["type-only"] },
    },
    ...serverTierRules(),
    {
      name: "server-folders-have-a-tier",
      comment: "every server/ folder (and file right in server/) has its place in SERVER_TIERS: add a new one there",
      severity: "error",
      from: {
        path: "^server/",
        pathNot: `${SERVER_TIERS.flatMap(([, levels]) => levels.flat().map(serverFolderPath)).join("|")}|${TEST}`,
      },
      to: {},
    },
    {
      name: "no-production-import-of-tests",
      comment: "tests and their helpers are never part of the product",
      severity: "error",
      from: { pathNot: TEST },
      to: { path: TEST },
    },
    {
      name: "jobs-platform-knows-no-feature",
      comment:
        "server/jobs (the queue: kinds, leases, events) imports no other server/ folder but the logger (server/observability), tests included; features register their kinds and subscribe in server/job-platform.ts",
      severity: "error",
      from: { path: "^server/jobs/" },
      to: { path: "^server/[^/]+/", pathNot: "^server/(jobs|observability)/" },
    },
    {
      name: "no-circular",
      comment: "no import cycles between files",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Every layer, present or future (runner/ arrives with the runner issue); tests beside the code too.
    // npm packages (not followed) and Node's built-ins stay in view for the per-layer package rules.
    includeOnly:
      "^(app|components|lib|db|server|scripts|runner|test|e2e|bench)/|^(auth|auth\\.config|instrumentation|proxy)\\.ts$|^node_modules/|^(node:)?[a-z_/]+$",
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(\\.next|\\.data)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
  },
};
