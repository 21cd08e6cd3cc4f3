/**
 * A V8 code cache for the CommonJS files of a test's studio process (`node --import` this file, with
 * RUBRIC_STUDIO_CODE_CACHE_DIR set; test/server/harness.ts does so under vitest). Every studio the
 * server suite starts loads the same built server chunks and Next.js's own files, and on the 2-core
 * machine parsing and compiling them was 2.2 of the 5.8 CPU-s a studio took to answer its first
 * request. Node 22 has this built in (NODE_COMPILE_CACHE); Node 20 has only vm.Script's cachedData.
 *
 * A file compiles as Node compiles it (the same wrapper, `require`, `module`, `__filename` and
 * `__dirname`); a file that may call import(), or is not a script (an ES module required from
 * CommonJS), is left to Node. Entries are keyed by path and content, written
 * once the module has run (so the functions it called are in them) and renamed into place, so
 * studios starting side by side share them.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import Module from "node:module";
import path from "node:path";
import vm from "node:vm";

const dir = process.env.RUBRIC_STUDIO_CODE_CACHE_DIR;
const DYNAMIC_IMPORT = /\bimport\s*\(/;

if (dir) {
  fs.mkdirSync(dir, { recursive: true });
  const nodeCompile = Module.prototype._compile;

  Module.prototype._compile = function compileWithCodeCache(content, filename) {
    // Node 20 loses a script's import() callback when it is compiled from cached data
    // (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING): a file that may import() is Node's to compile.
    if (DYNAMIC_IMPORT.test(content)) return nodeCompile.call(this, content, filename);
    const key = crypto.createHash("sha1").update(filename).update("\0").update(content).digest("hex");
    const entry = path.join(dir, key);
    let cachedData;
    try {
      cachedData = fs.readFileSync(entry);
    } catch {
      cachedData = undefined;
    }
    let script;
    try {
      script = new vm.Script(Module.wrap(content), {
        filename,
        cachedData,
      });
    } catch {
      return nodeCompile.call(this, content, filename);
    }
    const require = (id) => this.require(id);
    require.resolve = (request, options) => Module._resolveFilename(request, this, false, options);
    require.resolve.paths = (request) => Module._resolveLookupPaths(request, this);
    require.main = process.mainModule;
    require.extensions = Module._extensions;
    require.cache = Module._cache;
    const wrapper = script.runInThisContext({ displayErrors: true });
    const result = wrapper.call(this.exports, this.exports, require, this, filename, path.dirname(filename));
    if (cachedData === undefined || script.cachedDataRejected) {
      const partial = `${entry}.${process.pid}.partial`;
      try {
        fs.writeFileSync(partial, script.createCachedData());
        fs.renameSync(partial, entry);
      } catch {
        // A cache that cannot be written is only slower.
      }
    }
    return result;
  };
}
