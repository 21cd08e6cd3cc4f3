import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { KubeConfig } from "@kubernetes/client-node";
import * as tar from "tar-stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ClaimedJob } from "@/lib/runner/protocol";
import { claimedJobFixture } from "../claimed-job.testutil";
import { startFakeKubernetes, type FakeKubernetes, type FakePod } from "@/test/fake-kubernetes-api";
import { buildOutputsArchive } from "../outputs-archive";
import type { ReproduceResult } from "../reproduce";
import type { WholeJobBackend, WholeJobRun } from "./whole-job-backend";
import { kubernetesBackend } from "./kubernetes";
import { objectNames } from "./kubernetes-spec";

/**
 * The kubernetes backend through the real @kubernetes/client-node against test/fake-kubernetes-api.ts:
 * the fake runs each pod's `reproduce` container (the real wrapper script, bash and tar on this
 * machine) and the controller's execs, and the test moves the pods' phases. Every wait is on an event:
 * a pod appearing, a line of the log, a marker file the controller wrote, the backend's answer.
 */

let fake: FakeKubernetes;
let work: string;
beforeEach(async () => {
  fake = await startFakeKubernetes();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "k8s-backend-"));
});
afterEach(async () => {
  await fake.close();
  fs.rmSync(work, { recursive: true, force: true });
});

function backend(runnerName = "controller-0"): WholeJobBackend {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(fake.kubeconfigPath);
  return kubernetesBackend({
    namespace: "jobs",
    image: "pb-reproducer:test",
    runtimeClassName: null,
    runnerName,
    kubeConfig,
    retryMs: 10,
  });
}

function claim(settings: Partial<ClaimedJob["job"]["settings"]> = {}): ClaimedJob {
  return claimedJobFixture({
    settings: { secrets: { PAPER_KEY: "sk-very-secret-value" }, maxOutputFileBytes: 10 * 1024 * 1024, ...settings },
    lease: { leaseS: 120, heartbeatS: 30 },
  });
}

interface Started {
  run: WholeJobRun;
  result: Promise<ReproduceResult | null>;
  output: () => string;
  /** Resolves once the log holds `text`. */
  logged(text: string): Promise<void>;
  /** The job's pod, once the backend made it (a backend that failed before fails the test here). */
  pod(): Promise<FakePod>;
  cancel(): void;
  shutdown(): void;
}

function start(b: WholeJobBackend, claimed: ClaimedJob, script: string | null): Started {
  const dir = fs.mkdtempSync(path.join(work, "job-"));
  const sourceRoot = path.join(dir, "source");
  fs.mkdirSync(sourceRoot);
  if (script !== null) fs.writeFileSync(path.join(sourceRoot, "reproduce.sh"), script, { mode: 0o755 });
  fs.writeFileSync(path.join(sourceRoot, "README.md"), "a submission\n");
  let text = "";
  const listeners = new Set<() => void>();
  let cancel!: () => void;
  let shutdown!: () => void;
  const cancelled = new Promise<void>((r) => (cancel = r));
  const shutdownP = new Promise<void>((r) => (shutdown = r));
  const run: WholeJobRun = {
    claimed,
    jobDir: dir,
    sourceRoot,
    settings: claimed.job.settings,
    gpuIndices: claimed.job.gpuIndices,
    gpuNames: [],
    runnerName: "controller-0",
    attempt: claimed.job.attempt,
    spawnName: `${claimed.job.id}-1`,
    output: (t) => {
      text += t;
      for (const l of [...listeners]) l();
    },
    cancelled,
    shutdown: shutdownP,
    killGraceMs: 1000,
    limits: { memoryMiB: 512, processes: 100 },
    diskMiB: 1024,
  };
  const result = b.reproduceJob(run);
  return {
    run,
    result,
    pod: () =>
      Promise.race([
        fake.podOf(objectNames(claimed).job),
        result.then((r) => {
          throw new Error(`the backend ended before its pod existed: ${JSON.stringify(r)}`);
        }),
      ]),
    output: () => text,
    logged: (needle) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (text.includes(needle)) {
            listeners.delete(check);
            resolve();
          }
        };
        listeners.add(check);
        check();
      }),
    cancel,
    shutdown: () => {
      // As executeJob does: a shutdown resolves `shutdown`, then abandons (which resolves `cancelled`).
      shutdown();
      void shutdownP.then(cancel);
    },
  };
}

async function archiveNames(dir: string): Promise<Map<string, string>> {
  const file = path.join(work, `outputs-${randomUUID()}.tar.gz`);
  await buildOutputsArchive(dir, file, { maxFileBytes: 1024 * 1024, secrets: ["sk-very-secret-value"] });
  const files = new Map<string, string>();
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => extract.on("finish", resolve).on("error", reject));
  extract.on("entry", (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c) => void chunks.push(c as Buffer));
    stream.on("end", () => {
      files.set(header.name.replace(/^\.\//, ""), Buffer.concat(chunks).toString("utf8"));
      next();
    });
  });
  extract.end(gunzipSync(fs.readFileSync(file)));
  await done;
  return files;
}

const noObjectsLeft = () => fake.jobs.size === 0 && fake.secrets.size === 0 && fake.networkPolicies.size === 0;

describe("the kubernetes backend against a fake API server", () => {
  it("runs reproduce.sh in its own pod: log streamed and masked, exit 0, outputs collected, objects removed", async () => {
    const claimed = claim();
    const started = start(
      backend(),
      claimed,
      'echo "hello from the pod"; echo "key=$PAPER_KEY"; mkdir -p results && echo 42 > results/answer.txt\n',
    );
    const pod = await started.pod();
    // The policy and the Secret exist before the pod can run; the pod's env refers to the Secret.
    expect(fake.networkPolicies.has(objectNames(claimed).networkPolicy)).toBe(true);
    expect(fake.secrets.has(objectNames(claimed).secret)).toBe(true);
    const env = pod.pod.spec!.containers.flatMap((c) => c.env ?? []);
    expect(env.some((e) => /TOKEN|STUDIO|URL/.test(e.name))).toBe(false);
    expect(JSON.stringify(pod.pod.spec)).not.toContain(claimed.jobToken);
    expect(JSON.stringify(pod.pod.spec)).not.toContain("sk-very-secret-value");
    fake.startPod(pod.pod.metadata!.name!);

    const result = (await started.result)!;
    expect(result.status).toBe("succeeded");
    expect(result.exitCode).toBe(0);
    expect(result.ran).toBe(true);
    expect(started.output()).toContain("hello from the pod");
    expect(started.output()).toContain("key=***");
    expect(started.output()).not.toContain("sk-very-secret-value");
    expect(result.metadata.files_before_reproduce).toContain("reproduce.sh");
    expect(result.metadata.files_before_reproduce).not.toContain("answer.txt");
    expect(result.metadata.files_after_reproduce).toContain("answer.txt");
    expect(result.metadata.exit_code).toBe(0);
    expect(result.metadata.backend).toBe("kubernetes");

    // The outputs, read back with tar through exec, feed the outputs archive as every backend's do.
    const outputs = await archiveNames(result.submissionDir);
    expect(outputs.get("results/answer.txt")).toBe("42\n");
    expect(outputs.get("reproduce.log")).toContain("hello from the pod");
    expect(outputs.get("reproduce.log")).toContain("key=***");
    expect(outputs.get("reproduce.log.creation_time")).toMatch(/^\d+\n$/);
    expect(fake.execs.some((e) => e.container === "files" && e.command.join(" ").includes("tar -c"))).toBe(true);
    await fake.until(noObjectsLeft);
  });

  it("reports reproduce.sh's exit status from the container's terminated state", async () => {
    const claimed = claim();
    const started = start(backend(), claimed, "echo failing; exit 3\n");
    const pod = await started.pod();
    fake.startPod(pod.pod.metadata!.name!);
    const result = (await started.result)!;
    expect(result).toMatchObject({
      status: "failed",
      exitCode: 3,
      reason: "reproduce.sh exited with status 3",
      ran: true,
    });
    expect(started.output()).toContain("failing");
    await fake.until(noObjectsLeft);
  });

  it("reports a pod past its activeDeadlineSeconds (DeadlineExceeded) as timed out and deletes the Job", async () => {
    const claimed = claim();
    const started = start(backend(), claimed, "echo never runs here\n");
    const pod = await started.pod();
    const name = pod.pod.metadata!.name!;
    expect(pod.pod.spec!.activeDeadlineSeconds).toBeGreaterThan(3600);
    fake.startPod(name, { run: false });
    // The controller uploaded the submission and let the run go: then the kubelet's deadline passes.
    await fake.until(() => fs.existsSync(fake.volumePath(name, "control", "go")));
    expect(fs.readFileSync(fake.volumePath(name, "submission", "README.md"), "utf8")).toBe("a submission\n");
    fake.failPod(name, "DeadlineExceeded");
    const result = (await started.result)!;
    expect(result).toMatchObject({ status: "timed_out", exitCode: null, ran: false });
    expect(result.metadata.timedout).toBe(true);
    await fake.until(noObjectsLeft);
    expect(fake.requests).toContain(`DELETE /apis/batch/v1/namespaces/jobs/jobs/${objectNames(claimed).job}`);
  });

  it("reports the paper's timeout kept by the pod's own wrapper as timed out, with its outputs", async () => {
    const claimed = claim({ timeoutS: 1 });
    const started = start(backend(), claimed, "echo going to sleep; echo partial > partial.txt; exec sleep 600\n");
    const pod = await started.pod();
    fake.startPod(pod.pod.metadata!.name!);
    const result = (await started.result)!;
    expect(result).toMatchObject({ status: "timed_out", exitCode: null, ran: true });
    expect(result.metadata.timedout).toBe(true);
    expect((await archiveNames(result.submissionDir)).get("partial.txt")).toBe("partial\n");
  });

  it("cancel deletes the Job, its pod, its NetworkPolicy and its Secret", async () => {
    const claimed = claim();
    const started = start(backend(), claimed, "echo started; exec sleep 600\n");
    const pod = await started.pod();
    fake.startPod(pod.pod.metadata!.name!);
    await started.logged("started");
    started.cancel();
    const result = (await started.result)!;
    expect(result).toMatchObject({ status: "cancelled", reason: "cancelled by staff" });
    await fake.until(noObjectsLeft);
    expect(fake.pods.size).toBe(0);
    // The pod's processes were killed with it.
    await fake.until(() => pod.processes.size === 0);
  });

  it("a restarted controller re-adopts its running pod: no second Job, the log followed, the outputs collected", async () => {
    const claimed = claim();
    const first = start(
      backend(),
      claimed,
      'echo before-restart; while [ ! -e "$HOME/../release" ]; do sleep 0.1; done; echo after-restart; echo kept > kept.txt\n',
    );
    const pod = await first.pod();
    const name = pod.pod.metadata!.name!;
    fake.startPod(name);
    await first.logged("before-restart");
    // SIGTERM (a rollout): the controller leaves its pod running and its lease held.
    first.shutdown();
    expect(await first.result).toBeNull();
    expect(fake.pods.has(name)).toBe(true);
    expect(fake.jobs.size).toBe(1);

    const second = backend();
    const left = await second.adoptable();
    expect(left).toEqual([claimed]);
    const adopted = start(second, left[0], "this copy is not uploaded again\n");
    await adopted.logged("re-adopted the running pod");
    await fake.until(
      () => fake.requests.filter((r) => r.startsWith("GET") && r.endsWith(`/pods/${name}/log`)).length === 2,
    );
    fs.writeFileSync(fake.volumePath(name, "tmp", "release"), "");
    const result = (await adopted.result)!;
    expect(result.status).toBe("succeeded");
    expect(adopted.output()).toContain("after-restart");
    expect(adopted.output()).not.toContain("before-restart");
    const outputs = await archiveNames(result.submissionDir);
    expect(outputs.get("kept.txt")).toBe("kept\n");
    // The whole log is in reproduce.log, the lines written while no controller watched included.
    expect(outputs.get("reproduce.log")).toContain("before-restart");
    expect(fake.requests.filter((r) => r === "POST /apis/batch/v1/namespaces/jobs/jobs")).toHaveLength(1);
    // Only one upload: the adopting controller found the run already let go.
    expect(fake.execs.filter((e) => e.command.join(" ").includes("cat > /rubric/submission.tar"))).toHaveLength(1);
    await fake.until(noObjectsLeft);
  });

  it("a controller of another name does not see the pod; discard removes a job whose lease is gone", async () => {
    const claimed = claim();
    const first = start(backend("controller-0"), claimed, "exec sleep 600\n");
    const pod = await first.pod();
    fake.startPod(pod.pod.metadata!.name!, { run: false });
    first.shutdown();
    expect(await first.result).toBeNull();
    expect(await backend("controller-1").adoptable()).toEqual([]);
    const again = backend("controller-0");
    expect(await again.adoptable()).toHaveLength(1);
    await again.discard(claimed);
    await fake.until(noObjectsLeft);
  });

  it("fails the job, and deletes it, when its pod cannot start (an image that cannot be pulled)", async () => {
    const claimed = claim();
    const started = start(backend(), claimed, "echo never\n");
    const pod = await started.pod();
    fake.podWaiting(pod.pod.metadata!.name!, "ImagePullBackOff", "Back-off pulling image pb-reproducer:test");
    const result = (await started.result)!;
    expect(result).toMatchObject({
      status: "failed",
      ran: false,
      reason: "the job's pod cannot start: reproduce: ImagePullBackOff (Back-off pulling image pb-reproducer:test)",
    });
    await fake.until(noObjectsLeft);
  });

  it("fails the job when its pod is deleted under it", async () => {
    const claimed = claim();
    const started = start(backend(), claimed, "echo started; exec sleep 600\n");
    const pod = await started.pod();
    fake.startPod(pod.pod.metadata!.name!);
    await started.logged("started");
    fake.deletePod(pod.pod.metadata!.name!);
    const result = (await started.result)!;
    expect(result).toMatchObject({ status: "failed", reason: "the job's pod ended unexpectedly (Deleted)" });
    await fake.until(noObjectsLeft);
  });

  it("creates no pod for a submission without reproduce.sh", async () => {
    const claimed = claim();
    const result = (await start(backend(), claimed, null).result)!;
    expect(result).toMatchObject({ status: "failed", reason: "reproduce.sh not found at the submission's root" });
    expect(result.metadata.repro_script_exists).toBe(false);
    expect(fake.requests.some((r) => r.startsWith("POST"))).toBe(false);
  });
});
