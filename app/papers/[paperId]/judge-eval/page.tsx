import type { Metadata } from "next";
import Link from "next/link";
import { JudgeEvalWorkbench } from "@/components/judge-eval/judge-eval-workbench";
import { AccessDenied } from "@/components/layout/access-denied";
import { requirePaperPage } from "@/server/auth/page-access";

export const metadata: Metadata = { title: "JudgeEval" };

/** JudgeEval of one paper's submissions (staff and the paper's authors). */
export default async function PaperJudgeEvalPage({ params }: { params: Promise<{ paperId: string }> }) {
  const { paperId } = await params;
  const access = await requirePaperPage(paperId, "edit-rubric", `/papers/${paperId}/judge-eval`);
  if (!access.ok)
    return <AccessDenied reason={`${access.reason} JudgeEval is for benchmark staff and the paper's authors.`} />;
  return (
    <section className="space-y-4">
      <header>
        <p className="text-sm text-zinc-500">
          <Link href={`/papers/${access.paper.id}`} className="hover:underline">
            {access.paper.title}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">JudgeEval</h1>
        <p className="mt-1 max-w-3xl text-sm text-zinc-600">
          The judge against human graders on this paper&apos;s submissions: PaperBench&apos;s accuracy and macro
          precision, recall and F1, overall and per task category; invalid leaves left out.
        </p>
      </header>
      <JudgeEvalWorkbench paperId={access.paper.id} />
    </section>
  );
}
