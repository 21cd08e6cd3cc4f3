/**
 * The Node.js versions the README states are the ones every installed dependency accepts: each
 * package's `engines.node` in package-lock.json covers package.json's `engines.node`, which the
 * README quotes. So `npm install` prints no EBADENGINE on a Node the README promises (openai 7,
 * commander 15 and kubernetes-models 5 wanted Node 22). Platform packages for other systems
 * (optional, another `os` or `cpu`) are not installed here and not read.
 */
import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

interface LockEntry {
  version?: string;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  engines?: { node?: string } | string[];
}

/** npm's `os`/`cpu` lists: names allowed, `!name` refused. */
function allows(list: string[] | undefined, value: string): boolean {
  if (!list?.length) return true;
  if (list.includes(`!${value}`)) return false;
  return list.some((v) => !v.startsWith("!")) ? list.includes(value) : true;
}

describe("the Node.js versions", () => {
  const range = (JSON.parse(read("package.json")) as { engines: { node: string } }).engines.node;

  it("are the README's", () => {
    expect(semver.validRange(range)).not.toBeNull();
    expect(read("README.md")).toContain(`\`${range}\``);
  });

  it("are accepted by every dependency installed here", () => {
    const { packages } = JSON.parse(read("package-lock.json")) as { packages: Record<string, LockEntry> };
    const refusing = Object.entries(packages)
      .filter(
        ([where, entry]) =>
          where !== "" && !(entry.optional && !(allows(entry.os, process.platform) && allows(entry.cpu, process.arch))),
      )
      .flatMap(([where, entry]) => {
        const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return wanted && !semver.subset(range, wanted, { includePrerelease: false })
          ? [`${where}@${entry.version}: node ${wanted}`]
          : [];
      });
    expect(refusing).toEqual([]);
  });
});
