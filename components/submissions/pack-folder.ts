import { REPRODUCE_SH } from "@/lib/judge/engine/file-selection";
import { tarBlob, type TarEntry } from "@/lib/submissions/tar-writer";

/** A picked folder's files under paths relative to the folder itself (the browser prefixes its name). */
export function folderEntries(files: File[]): TarEntry[] {
  return files.map((f) => {
    const rel = f.webkitRelativePath || f.name;
    return { path: rel.includes("/") ? rel.slice(rel.indexOf("/") + 1) : rel, data: f, mtimeMs: f.lastModified };
  });
}

/** The picked folder's own name (the first segment the browser gives every file). */
export function folderName(files: File[]): string {
  return (files[0]?.webkitRelativePath || files[0]?.name || "folder").split("/")[0];
}

/** A folder packed here as one .tar (the server checks every entry as it does an uploaded archive's). */
export function packFolder(files: File[]): File {
  return new File([tarBlob(folderEntries(files))], `${folderName(files)}.tar`, { type: "application/x-tar" });
}

/** Whether a picked folder has PaperBench's `reproduce.sh` at its root (without it, a reproduction has nothing to run). */
export function hasReproduceScript(files: File[]): boolean {
  return folderEntries(files).some((e) => e.path === REPRODUCE_SH);
}
