import { expect, type Page } from "@playwright/test";
import type { JobView } from "../../lib/jobs/job-view";
import { isFinalJobStatus } from "../../lib/jobs/states";

/**
 * Waits until the submission's latest reproduction has ended, with no bound of its own: the test's
 * timeout is the only one. On CI the embedded runner shares two cores with the server suite (its
 * sandbox tests fill disks and fork on purpose), and the demo's few seconds once took over a minute:
 * a fixed bound failed a reproduction that was only slow. Should the test time out here, the
 * failure says what the job was doing (state, attempt, runner) and ends with its log so far.
 */
export async function reproductionEnded(page: Page, submissionId: string): Promise<JobView> {
  let ended: JobView | null = null;
  await expect(async () => {
    const submission = await page.request.get(`/api/submissions/${submissionId}`);
    expect(submission.status(), await submission.text()).toBe(200);
    const latest = ((await submission.json()) as { submission: { jobs: JobView[] } }).submission.jobs[0];
    expect(latest, "the submission has a reproduction").toBeTruthy();
    const res = await page.request.get(`/api/jobs/${latest.id}`);
    expect(res.status(), await res.text()).toBe(200);
    const { job, logTail } = (await res.json()) as { job: JobView; logTail: string };
    const doing = `${job.status}, attempt ${job.attempts}, runner ${job.runnerName ?? "none"}, started ${job.startedAt ?? "not yet"}`;
    expect(isFinalJobStatus(job.status), `the reproduction has not ended (${doing}); its log so far:\n${logTail}`).toBe(
      true,
    );
    ended = job;
  }).toPass({ timeout: 0, intervals: [250, 500, 1_000] });
  return ended!;
}

/** The latest reproduction ended and succeeded (else its failure reason), and the page's badge says so. */
export async function expectReproductionSucceeded(page: Page, submissionId: string): Promise<void> {
  const job = await reproductionEnded(page, submissionId);
  expect(job.status, job.failureReason ?? "").toBe("succeeded");
  // The page follows the job's stream: once the job has ended, its badge follows promptly.
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "succeeded");
}

/** The submission whose page this is (`/submissions/<id>`). */
export function submissionIdOf(page: Page): string {
  const id = new URL(page.url()).pathname.match(/^\/submissions\/([0-9a-f-]{36})$/)?.[1];
  expect(id, `a submission's page, not ${page.url()}`).toBeTruthy();
  return id!;
}
