import Link from "next/link";
import { AccessDenied } from "@/components/layout/access-denied";
import { MembersPanel } from "@/components/papers/members-panel";
import { RubricConsequencesPanel } from "@/components/papers/rubric-consequences-panel";
import { RubricPanel } from "@/components/papers/rubric-panel";
import { RunSettingsPanel } from "@/components/papers/run-settings-panel";
import { GradingsPanel } from "@/components/review/gradings-panel";
import { SubmissionsPanel } from "@/components/submissions/submissions-panel";
import { buttonClass } from "@/components/ui/button";
import { Markdown } from "@/components/ui/markdown";
import { requirePaperPage } from "@/server/auth/page-access";
import { canEditRubric } from "@/lib/auth/access";

export default async function PaperPage({ params }: { params: Promise<{ paperId: string }> }) {
  const { paperId } = await params;
  const access = await requirePaperPage(paperId, "view", `/papers/${paperId}`);
  if (!access.ok) return <AccessDenied reason={access.reason} />;
  const { paper, role } = access;
  const canEdit = canEditRubric(role);

  return (
    <article className="space-y-6">
      <header className="flex flex-wrap items-start gap-4">
        <div className="min-w-0 flex-1">
          <h1 className="text-2xl font-semibold" data-testid="paper-title">
            {paper.title}
          </h1>
          <p className="mt-1 font-mono text-sm text-zinc-500">
            {paper.id} · you are <span data-testid="paper-role">{role}</span>
          </p>
        </div>
        {canEdit && (
          <Link href={`/papers/${paper.id}/judge-eval`} className={buttonClass("secondary")}>
            JudgeEval
          </Link>
        )}
        {role === "staff" && (
          <Link href={`/papers/${paper.id}/edit`} className={buttonClass("secondary")}>
            Edit paper
          </Link>
        )}
      </header>

      <RubricPanel paperId={paper.id} canEdit={canEdit} />
      {canEdit && <RubricConsequencesPanel paperId={paper.id} canRegrade={role === "staff"} />}
      <GradingsPanel paperId={paper.id} role={role} />
      <SubmissionsPanel paperId={paper.id} canManage={role === "staff"} />

      <div className="grid gap-6 lg:grid-cols-[1fr_18rem]">
        <div className="space-y-6">
          <Section title="Paper">
            {paper.paperMarkdown ? <Markdown>{paper.paperMarkdown}</Markdown> : <Empty>No paper text yet.</Empty>}
          </Section>
          <Section title="Addendum">
            {paper.addendum ? <Markdown>{paper.addendum}</Markdown> : <Empty>No addendum.</Empty>}
          </Section>
          <Section title="Judge addendum">
            {paper.judgeAddendum ? <Markdown>{paper.judgeAddendum}</Markdown> : <Empty>No judge addendum.</Empty>}
          </Section>
        </div>
        <aside className="space-y-6">
          <Section title="Blacklist">
            {paper.blacklist.length === 0 ? (
              <Empty>No URLs are blacklisted.</Empty>
            ) : (
              <ul className="space-y-1 text-sm">
                {paper.blacklist.map((url) => (
                  <li key={url} className="break-all font-mono text-xs text-zinc-700">
                    {url}
                  </li>
                ))}
              </ul>
            )}
          </Section>
          <MembersPanel paperId={paper.id} canManage={role === "staff"} />
          <RunSettingsPanel paperId={paper.id} canManage={role === "staff"} />
        </aside>
      </div>
    </article>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-lg border border-zinc-200 bg-white p-5">
      <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-zinc-500">{title}</h2>
      {children}
    </section>
  );
}

function Empty({ children }: { children: React.ReactNode }) {
  return <p className="text-sm text-zinc-500">{children}</p>;
}
