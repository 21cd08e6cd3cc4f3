import type { ErrorCode, ErrorDetail } from "@/lib/errors";

/** An error answer from the studio API, as the browser sees it. */
export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | "network",
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = "ApiClientError";
  }
}

/** fetch + JSON, turning `{ error: { code, message, details } }` answers into ApiClientError. */
export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch {
    throw new ApiClientError(0, "network", "The studio could not be reached; check your connection");
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const error = body?.error;
    throw new ApiClientError(
      res.status,
      error?.code ?? "internal",
      error?.message ?? `Request failed (${res.status})`,
      error?.details ?? [],
    );
  }
  return body as T;
}

export const jsonInit = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});
