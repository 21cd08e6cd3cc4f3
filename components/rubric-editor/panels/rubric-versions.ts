/** Named versions of a rubric, as the versions panel reads them. */
export interface RubricVersion {
  id: string;
  name: string;
  revision: number;
  createdAt: string;
  createdBy: { name: string | null; email: string } | null;
}

export const rubricVersionsQueryKey = (paperId: string) => ["rubric-versions", paperId] as const;
export const rubricVersionQueryKey = (paperId: string, versionId: string) =>
  ["rubric-version", paperId, versionId] as const;

/** A side of a comparison: a version id, or the live tree. */
export const LIVE = "live";
export type Side = string;
