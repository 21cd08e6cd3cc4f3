/**
 * How the command lines that talk to a running studio (submission, evaluation) call it: one error
 * type for a refusal or an unreachable studio, and the answer's JSON or that error.
 */

/** A refusal the studio answered (its message), or a failure to reach it. */
export class StudioError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

export async function studioFetch(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new StudioError(
      `cannot reach the studio at ${new URL(url).origin}: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
      null,
    );
  }
}

export async function answerOf(res: Response): Promise<unknown> {
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  if (!res.ok) {
    const error = (body as { error?: { message?: string } } | null)?.error;
    const hint = res.status === 401 ? " (check STUDIO_TOKEN)" : "";
    throw new StudioError(
      `the studio answered ${res.status}: ${error?.message ?? text.slice(0, 300)}${hint}`,
      res.status,
    );
  }
  return body;
}
