import { AccessDenied } from "@/components/layout/access-denied";
import { PaperForm } from "@/components/papers/paper-form";
import { requirePaperPage } from "@/server/auth/page-access";

export default async function EditPaperPage({ params }: { params: Promise<{ paperId: string }> }) {
  const { paperId } = await params;
  const access = await requirePaperPage(paperId, "manage", `/papers/${paperId}/edit`);
  if (!access.ok) return <AccessDenied reason={access.reason} />;
  const { paper } = access;
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="mb-4 text-2xl font-semibold">Edit {paper.title}</h1>
      <PaperForm
        mode="edit"
        initial={{
          id: paper.id,
          title: paper.title,
          paperMarkdown: paper.paperMarkdown,
          addendum: paper.addendum,
          judgeAddendum: paper.judgeAddendum,
          blacklist: paper.blacklist.join("\n"),
        }}
      />
    </div>
  );
}
