import "server-only";
import fs from "node:fs";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";
import * as yauzl from "yauzl";
import { normalizeEntryPath } from "@/lib/files/entry-path";
import type { SubmissionArchive } from "@/lib/submissions/archive";
import { BlacklistMonitor, type SubmissionFlags } from "@/lib/submissions/blacklist-monitor";

/** Where PaperBench's agent log may sit in a submission archive, relative to its root folder. */
const AGENT_LOG_PATHS = ["agent.log", "logs/agent.log"] as const;

/** The agent log's path in a checked archive's listing (paths relative to its one top folder, if any), or null. */
export function agentLogPathIn(archive: SubmissionArchive): string | null {
  for (const p of AGENT_LOG_PATHS) if (archive.files.some((f) => f.path === p)) return p;
  return null;
}

/**
 * Scans the submission's agent log for the paper's blacklist: a log sent beside the archive
 * (`agentLog`), else `agent.log` or `logs/agent.log` inside the archive (already checked by
 * `checkSubmissionArchive`). The log is streamed, never held whole. Null when there is no log
 * (nothing to say, so no flag).
 */
export async function scanAgentLog(input: {
  archivePath: string;
  archive: SubmissionArchive;
  agentLog?: { path: string };
  blacklist: readonly string[];
}): Promise<SubmissionFlags | null> {
  const monitor = new BlacklistMonitor(input.blacklist);
  const decoder = new TextDecoder("utf-8");
  const feed = async (stream: AsyncIterable<Buffer>) => {
    for await (const chunk of stream) monitor.feed(decoder.decode(chunk, { stream: true }));
    monitor.feed(decoder.decode());
    monitor.end();
  };
  let log: string;
  if (input.agentLog) {
    log = "agent.log";
    await feed(fs.createReadStream(input.agentLog.path));
  } else {
    const inArchive = agentLogPathIn(input.archive);
    if (inArchive === null) return null;
    log = inArchive;
    const found = await readArchiveEntry(input.archivePath, inArchive, feed);
    if (!found) return null;
  }
  return { blacklist: { ...monitor.result(), log, rules: [...input.blacklist], scannedAt: new Date().toISOString() } };
}

/** Whether an entry's path is `rel`, at the archive's root or under one top folder (as the listing strips it). */
function isEntry(rawPath: string, rel: string): boolean {
  const p = normalizeEntryPath(rawPath);
  if (p === null) return false;
  if (p === rel) return true;
  const slash = p.indexOf("/");
  return slash > 0 && p.slice(slash + 1) === rel;
}

/** Streams the archive entry at `rel` to `read`; false when there is none. Tar (gzipped or not) and zip. */
async function readArchiveEntry(
  filePath: string,
  rel: string,
  read: (stream: AsyncIterable<Buffer>) => Promise<void>,
): Promise<boolean> {
  const head = Buffer.alloc(4);
  const fd = await fs.promises.open(filePath, "r");
  try {
    await fd.read(head, 0, 4, 0);
  } finally {
    await fd.close();
  }
  if (head[0] === 0x50 && head[1] === 0x4b) return readZipEntry(filePath, rel, read);
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  const extract = tar.extract();
  const source: Readable = fs.createReadStream(filePath);
  const done = gzip ? pipeline(source, createGunzip(), extract) : pipeline(source, extract);
  done.catch(() => {});
  let found = false;
  try {
    for await (const entry of extract) {
      if (!found && (entry.header.type === "file" || !entry.header.type) && isEntry(entry.header.name, rel)) {
        found = true;
        await read(entry as AsyncIterable<Buffer>);
        // The log is read; the rest of the archive need not be.
        source.destroy();
        return true;
      }
      entry.resume();
    }
    await done;
  } finally {
    source.destroy();
  }
  return found;
}

async function readZipEntry(
  filePath: string,
  rel: string,
  read: (stream: AsyncIterable<Buffer>) => Promise<void>,
): Promise<boolean> {
  const zip = await yauzl.openPromise(filePath, { lazyEntries: true, decodeStrings: false });
  try {
    for await (const entry of zip.eachEntry()) {
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
      if (name.endsWith("/") || entry.isEncrypted() || !isEntry(name, rel)) continue;
      await read(await zip.openReadStreamPromise(entry));
      return true;
    }
  } finally {
    zip.close();
  }
  return false;
}
