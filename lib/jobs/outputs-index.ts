/**
 * What a reproduction's outputs archive holds, for the submission page: every file with its size,
 * and whether reproduction changed it (written after `reproduce.log.creation_time`, or new).
 */
export interface OutputFile {
  path: string;
  size: number;
  changed: boolean;
}

export interface OutputsIndex {
  files: OutputFile[];
  bytes: number;
}

/** The name PaperBench gives the file holding the time reproduction started. */
export const CREATION_TIME_FILE = "reproduce.log.creation_time";
