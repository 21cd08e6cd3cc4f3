/**
 * pathlib's `PurePosixPath` rules (CPython 3.11) that PaperBench's file selection relies on.
 * Python's strings are code points and JavaScript's UTF-16 units, but every rule here looks only at
 * ASCII `/` and `.`, so the two agree.
 */

/** `PurePosixPath(p).parts`: `/` (or exactly `//`) as the root, then the components without `''` and `.`. */
export function pythonPathParts(relPath: string): string[] {
  const parts: string[] = [];
  let rest = relPath;
  if (rest.startsWith("/")) {
    // POSIX keeps exactly two leading slashes as an implementation-defined root; three or more are `/`.
    const root = rest.startsWith("//") && !rest.startsWith("///") ? "//" : "/";
    parts.push(root);
    rest = rest.replace(/^\/+/, "");
  }
  for (const part of rest.split("/")) if (part !== "" && part !== ".") parts.push(part);
  return parts;
}

/** `PurePosixPath(p).name`: the last component, `''` for a bare root or an empty path. */
export function pythonName(path: string): string {
  const parts = pythonPathParts(path);
  if (parts.length === 0) return "";
  if (parts.length === 1 && path.startsWith("/")) return "";
  return parts[parts.length - 1];
}

/** `PurePosixPath(p).suffix`: from the last dot of the name, if it is neither its first nor its last character. */
export function pythonSuffix(name: string): string {
  const base = pythonName(name);
  const i = base.lastIndexOf(".");
  return i > 0 && i < base.length - 1 ? base.slice(i) : "";
}

/** `str(PurePosixPath(p))`: duplicate slashes and `.` components dropped, no trailing slash, `.` when empty. */
export function pythonPathStr(p: string): string {
  const parts = pythonPathParts(p);
  if (parts.length === 0) return ".";
  if (p.startsWith("/")) return parts[0] + parts.slice(1).join("/");
  return parts.join("/");
}
