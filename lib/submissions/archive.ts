/** A submitted repository as read from its archive (`server/submissions/archive.ts`) and stored. */

export interface SubmissionArchiveFile {
  path: string;
  size: number;
  /** Null when the file was not kept; `skipped` says why. */
  content: string | null;
  skipped: string | null;
  /** A file not kept as text (binary, not UTF-8, too large): its first bytes, when the reader was asked for them (`heads`). */
  head?: Uint8Array;
}

export interface SubmissionArchive {
  name: string;
  files: SubmissionArchiveFile[];
  /** The root `reproduce.log`, when the submission has one (its tail when longer than the limit). */
  reproduceLog: string | null;
  /** Entries that are not files of the listing (links, unsafe paths, `.git/`), with why. */
  notes: { path: string; reason: string }[];
  /** Size of every file listed, kept or not. */
  totalBytes: number;
}
