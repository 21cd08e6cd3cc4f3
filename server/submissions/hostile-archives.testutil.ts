/**
 * Test-only: archives built to read or write outside the folder they are unpacked into, each with
 * the refusal the path rule (`lib/files/entry-path.ts`) must give, and a canary folder on the host
 * that none of them may bring into the studio.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestEntry } from "./archive.testutil";

export interface HostileCase {
  what: string;
  entries: TestEntry[];
  /** The entry the refusal names, and the rule it gives. */
  entry: string;
  refusal: RegExp;
  /** A host path the archive tries to write: it must not exist afterwards. */
  planted?: string;
}

/** A folder outside any upload holding a submission-like tree with a secret in it, as the host's files would. */
export function makeCanary(): { dir: string; secret: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rs-canary-"));
  const secret = `CANARY-${Math.random().toString(36).slice(2)}-BEGIN PRIVATE KEY`;
  fs.writeFileSync(path.join(dir, "reproduce.sh"), "echo canary\n");
  fs.writeFileSync(path.join(dir, "id_rsa"), `${secret}\n`);
  return { dir, secret };
}

/**
 * Links enough to climb from an unpack folder under the temporary folder to `/` (going up from `/`
 * stays there): each `lN -> l(N-1)/..` looks inside to a lexical check. Linux follows at most 40
 * links in one path, and the last link passes through all of them.
 */
export const CHAIN = os.tmpdir().split("/").length + 10;

/** The chain made on disk in `dir` (as a folder upload would hold it); answers the link target that reaches host path `target` through it. */
export function makeChainOnDisk(dir: string, target: string): string {
  fs.mkdirSync(path.join(dir, "sub"), { recursive: true });
  fs.symlinkSync("sub/..", path.join(dir, "l0"));
  for (let i = 1; i <= CHAIN; i++) fs.symlinkSync(`l${i - 1}/..`, path.join(dir, `l${i}`));
  return `l${CHAIN}${target}`;
}

/**
 * The hostile archives, with `leaf` (under `prefix`, as `demo/1/`) the entry a reader takes as a
 * file or folder of its layout (`submission`, `grade.json`) and `target` the host path it should
 * reach (the canary, or a file in it).
 */
export function hostileCases(prefix: string, leaf: string, target: string, plantIn: string): HostileCase[] {
  const chain: TestEntry[] = [
    { name: `${prefix}sub/`, type: "directory" },
    { name: `${prefix}l0`, type: "symlink", linkname: "sub/.." },
  ];
  for (let i = 1; i <= CHAIN; i++) chain.push({ name: `${prefix}l${i}`, type: "symlink", linkname: `l${i - 1}/..` });
  chain.push({ name: `${prefix}${leaf}`, type: "symlink", linkname: `l${CHAIN}${target}` });
  const planted = (name: string) => path.join(plantIn, name);
  return [
    {
      what: "a chain of links climbing out (a -> sub/.., b -> a/.., …)",
      entries: chain,
      entry: `${prefix}l0`,
      refusal: /is a link to "sub\/\.\.", with a \.\. segment/,
    },
    {
      what: "an absolute link",
      entries: [{ name: `${prefix}${leaf}`, type: "symlink", linkname: target }],
      entry: `${prefix}${leaf}`,
      refusal: /is a link to an absolute path/,
    },
    {
      what: "a name with a/../b",
      entries: [{ name: `${prefix}x/../${leaf}`, data: "x" }],
      entry: `${prefix}x/../${leaf}`,
      refusal: /has a \.\. segment in its path/,
    },
    {
      what: "an absolute name",
      entries: [{ name: planted("absolute.sh"), data: "echo planted\n" }],
      entry: planted("absolute.sh"),
      refusal: /has an absolute path/,
      planted: planted("absolute.sh"),
    },
    {
      what: "a ../ name",
      entries: [{ name: `${"../".repeat(CHAIN)}${planted("dotdot.sh").slice(1)}`, data: "echo planted\n" }],
      entry: `${"../".repeat(CHAIN)}${planted("dotdot.sh").slice(1)}`,
      refusal: /has a \.\. segment in its path/,
      planted: planted("dotdot.sh"),
    },
  ];
}
