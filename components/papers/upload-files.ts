/** Names a PaperBench paper folder may contain; anything else in a picked folder is ignored. */
const FOLDER_FILES = ["rubric.json", "config.yaml", "blacklist.txt", "paper.md", "addendum.md", "judge_addendum.md"];

/**
 * Builds the multipart form for an upload from picked files: a lone JSON file is the rubric, a
 * picked folder contributes the PaperBench files it has.
 */
export function uploadFormFromFiles(
  files: FileList | File[],
): { form: FormData; folderName?: string } | { error: string } {
  const list = Array.from(files);
  const form = new FormData();
  if (list.length === 1 && !list[0].webkitRelativePath) {
    form.set("rubric.json", list[0]);
    return { form };
  }
  let folderName: string | undefined;
  for (const file of list) {
    const parts = file.webkitRelativePath.split("/");
    // Only the folder's own files, not those of nested folders.
    if (parts.length > 2) continue;
    folderName ??= parts.length === 2 ? parts[0] : undefined;
    if (FOLDER_FILES.includes(file.name)) form.set(file.name, file);
  }
  if (!form.has("rubric.json")) return { error: "The folder has no rubric.json" };
  if (folderName) form.set("folderName", folderName);
  return { form, folderName };
}
