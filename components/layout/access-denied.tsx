import Link from "next/link";

export function AccessDenied({ reason }: { reason: string }) {
  return (
    <div
      role="alert"
      data-testid="access-denied"
      className="mx-auto mt-10 max-w-lg rounded-lg border border-amber-200 bg-amber-50 p-6"
    >
      <h1 className="text-lg font-semibold text-amber-900">No access</h1>
      <p className="mt-2 text-sm text-amber-900">{reason}</p>
      <p className="mt-2 text-sm text-amber-900">
        Rubrics are confidential. Ask a benchmark maintainer to add you to the paper.{" "}
        <Link href="/" className="underline">
          Back to your papers
        </Link>
      </p>
    </div>
  );
}
