import Link from "next/link";
import { getCurrentUser } from "@/server/auth/session";
import { listPapers } from "@/server/papers/read-papers";
import { getStore } from "@/server/store";
import { DemoBadge } from "@/components/demo/demo-badge";
import { buttonClass } from "@/components/ui/button";

export default async function HomePage() {
  const user = await getCurrentUser();
  if (!user) {
    return (
      <section className="mx-auto max-w-2xl py-16 text-center">
        <h1 className="text-3xl font-bold tracking-tight">Rubric Studio</h1>
        <p className="mt-4 text-zinc-600">
          Paper authors and benchmark staff build and weight PaperBench grading rubrics together; expert graders review
          the judge&apos;s verdicts. Rubrics are confidential: sign in to see the papers you belong to.
        </p>
        <Link href="/signin" className={buttonClass("primary", "mt-8")}>
          Sign in
        </Link>
      </section>
    );
  }
  const papers = await listPapers(await getStore(), user);
  return (
    <section>
      <div className="mb-4 flex items-center justify-between">
        <h1 className="text-2xl font-semibold">Papers</h1>
        {user.isStaff && (
          <Link href="/papers/new" className={buttonClass("primary")}>
            New paper
          </Link>
        )}
      </div>
      {papers.length === 0 ? (
        <div className="rounded-lg border border-dashed border-zinc-300 bg-white p-10 text-center text-zinc-600">
          {user.isStaff
            ? "No papers yet. Create one, or import a PaperBench paper folder."
            : "You are not a member of any paper yet. Ask a benchmark maintainer to add you by email."}
        </div>
      ) : (
        <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white" data-testid="paper-list">
          {papers.map((p) => (
            <li key={p.id}>
              <Link href={`/papers/${p.id}`} className="flex items-center gap-4 px-4 py-3 hover:bg-zinc-50">
                <div className="min-w-0 flex-1">
                  <div className="flex items-center gap-2">
                    <span className="truncate font-medium">{p.title}</span>
                    {p.isDemo && <DemoBadge />}
                  </div>
                  <div className="font-mono text-xs text-zinc-500">{p.id}</div>
                </div>
                <span className="text-xs text-zinc-500">
                  {p.nodeCount > 0 ? `${p.nodeCount.toLocaleString("en")} nodes · rev ${p.revision}` : "no rubric"}
                </span>
                <span className="w-16 text-right text-xs text-zinc-600">{p.role ?? (user.isStaff ? "staff" : "")}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
