/**
 * PaperBench's `format_file` (paperbench/judge/utils.py): a file as the judge is shown it. The path is
 * printed as Python prints a Path (`str(Path)`), and a file whose content is only (Python)
 * whitespace is shown as empty.
 */
import { pythonPathStr } from "./path-rules";
import { pythonStrip } from "./python-chars";

export function formatFile(filePath: string, fileContent: string): string {
  const shown = pythonPathStr(filePath);
  return `<FILE:${shown}>\n${pythonStrip(fileContent) ? fileContent : "(FILE IS EMPTY)"}\n</FILE:${shown}>`;
}
