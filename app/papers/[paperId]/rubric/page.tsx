import type { Metadata } from "next";
import { preload } from "react-dom";
import { AccessDenied } from "@/components/layout/access-denied";
import { RubricEditor } from "@/components/rubric-editor/rubric-editor";
import { requirePaperPage } from "@/server/auth/page-access";
import { canEditRubric } from "@/lib/auth/access";

export const metadata: Metadata = { title: "Rubric editor" };

/** The rubric editor: authors and staff edit, graders read. */
export default async function RubricEditorPage({ params }: { params: Promise<{ paperId: string }> }) {
  const { paperId } = await params;
  const access = await requirePaperPage(paperId, "view", `/papers/${paperId}/rubric`);
  if (!access.ok) return <AccessDenied reason={access.reason} />;
  const { paper, role } = access;
  // The rows load while the page's scripts do (the editor's first fetch of this URL takes this response).
  preload(`/api/papers/${encodeURIComponent(paper.id)}/rubric/nodes`, { as: "fetch", crossOrigin: "anonymous" });
  return <RubricEditor paperId={paper.id} title={paper.title} canEdit={canEditRubric(role)} />;
}
