import type { Metadata } from "next";
import { JudgeEvalWorkbench } from "@/components/judge-eval/judge-eval-workbench";
import { AccessDenied } from "@/components/layout/access-denied";
import { judgeEvalPaperScope } from "@/server/judge/eval/judge-eval-access";
import { getCurrentUser } from "@/server/auth/session";
import { getStore } from "@/server/store";
import { redirect } from "next/navigation";

export const metadata: Metadata = { title: "JudgeEval" };

/** JudgeEval pooled over any set of submissions: staff over every paper, authors over theirs. */
export default async function JudgeEvalPage() {
  const user = await getCurrentUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent("/judge-eval")}`);
  const scope = await judgeEvalPaperScope(await getStore(), user);
  if (scope !== null && scope.size === 0)
    return <AccessDenied reason="JudgeEval is for benchmark staff and the authors of a paper." />;
  return (
    <section className="space-y-4">
      <header>
        <h1 className="text-2xl font-semibold">JudgeEval</h1>
        <p className="mt-1 max-w-3xl text-sm text-zinc-600">
          How well the judge agrees with human graders, leaf by leaf, as PaperBench measures it: accuracy and precision,
          recall and F1 macro-averaged over the classes 0 and 1, overall and per task category, pooled over the
          submissions you choose. Invalid leaves are left out.{" "}
          {scope === null
            ? "Every paper."
            : `Your ${scope.size === 1 ? "paper" : `${scope.size} papers`} as an author.`}
        </p>
      </header>
      <JudgeEvalWorkbench />
    </section>
  );
}
