import type { ErrorDetail } from "@/lib/errors";

export type ExportOutcome = { ok: true } | { ok: false; blocked: boolean; message: string; details: ErrorDetail[] };

/**
 * Downloads a paper's rubric.json as the server exports it (browser only). A rubric that breaks a
 * PaperBench rule comes back `blocked` with the reasons, for the caller to offer "Export anyway".
 */
export async function downloadRubricExport(
  paperId: string,
  opts: { force?: boolean; codeDev?: boolean; fileName?: string } = {},
): Promise<ExportOutcome> {
  const params = new URLSearchParams();
  if (opts.codeDev) params.set("variant", "code-dev");
  if (opts.force) params.set("force", "1");
  const qs = params.toString();
  const res = await fetch(`/api/papers/${encodeURIComponent(paperId)}/rubric/export${qs ? `?${qs}` : ""}`, {
    cache: "no-store",
  });
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    return {
      ok: false,
      blocked: res.status === 409 && body?.error?.code === "export_blocked",
      message: body?.error?.message ?? `Export failed (${res.status})`,
      details: body?.error?.details ?? [],
    };
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = opts.fileName ?? fileNameFrom(res.headers.get("content-disposition")) ?? "rubric.json";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { ok: true };
}

function fileNameFrom(disposition: string | null): string | null {
  const m = disposition?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  return m ? decodeURIComponent(m[1]) : null;
}
