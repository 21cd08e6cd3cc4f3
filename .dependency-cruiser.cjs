/**
 * The layers of ARCHITECTURE.md, enforced (`npm run lint:layers`, run by `npm test`).
 *
 *   app, scripts  →  server  →  db  →  lib
 *   components    →  lib
 *   runner        →  lib
 *
 * Root files: `auth.ts` and `instrumentation.ts` belong to the server layer (they open sessions and
 * start the studio); `auth.config.ts` is edge-safe configuration. Tests, e2e specs, benchmarks and
 * test helpers (`*.testutil.ts`, `test/`) may reach any layer, but production code never imports them.
 */
/** Opening the database (not reading or writing it): the client factory and PGlite's data directory. */
const DB_INFRA = "db/(client|pglite-template|data-dir-lock)\\.ts$";
const SERVER = "^(server/|auth\\.ts$|instrumentation\\.ts$)";
const TEST = "(\\.test\\.tsx?$|\\.testutil\\.tsx?$|^test/|^e2e/|^bench/)";

/** Node built-ins that do I/O: the domain in lib/ runs in the browser too. */
const IO_BUILTINS = "^(node:)?(fs|fs/promises|child_process|net|http|https|http2|tls|dgram|dns|os|worker_threads|cluster|zlib|stream|stream/promises|readline|vm|process)$";

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
      name: "lib-is-not-server-only",
      comment: "server-only code lives in server/ or db/",
      severity: "error",
      from: { path: "^lib/", pathNot: TEST },
      to: { path: "^node_modules/server-only/" },
    },
    layer("db-is-sql-only", "^db/", ["db/", "lib/"], "db/ holds the schema, the client and SQL repositories: it imports lib/ (types, errors) only"),
    layer("server-uses-db-and-lib", SERVER, ["server/", "db/", "lib/", "auth\\.ts$", "auth\\.config\\.ts$"], "server/ holds the use cases: it imports db/ and lib/"),
    layer("components-use-lib", "^components/", ["components/", "lib/"], "components/ are React; they reach the server over HTTP (or as props from a page), never by import"),
    layer("app-uses-server", "^app/", ["app/", "server/", "components/", "lib/", "auth\\.ts$"], "routes and pages call services in server/, never repositories in db/ directly", ["type-only"]),
    layer("scripts-use-server", "^scripts/", ["scripts/", "server/", "lib/", DB_INFRA], "the CLI calls services, so it announces like the UI (it may open the database)"),
    layer("submission-cli-is-http-only", "^scripts/submission-cli\\.ts$", ["lib/", "server/submissions/pack-directory\\.ts$"], "the submission CLI talks HTTP to a running studio with a token: no database, no server code but the directory packer (plain Node, shared with the demo seed)"),
    layer("runner-uses-lib", "^runner/", ["runner/", "lib/"], "the runner talks HTTP to the studio: no database, no server code"),
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
    {
      name: "no-production-import-of-tests",
      comment: "tests and their helpers are never part of the product",
      severity: "error",
      from: { pathNot: TEST },
      to: { path: TEST },
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
    // server-only, drizzle-orm and Node's built-ins stay in view for the lib/ and db/ rules.
    includeOnly: "^(app|components|lib|db|server|scripts|runner|test|e2e|bench)/|^(auth|auth\\.config|instrumentation)\\.ts$|^node_modules/(server-only|drizzle-orm)/|^(node:)?[a-z_/]+$",
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(\\.next|\\.data)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
  },
};
