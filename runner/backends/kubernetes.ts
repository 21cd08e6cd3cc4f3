import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PassThrough, Writable, type Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import {
  ApiException,
  BatchV1Api,
  CoreV1Api,
  Exec,
  KubeConfig,
  Log,
  NetworkingV1Api,
  Watch,
  type V1Pod,
  type V1Status,
} from "@kubernetes/client-node";
import { claimedJobSchema, type ClaimedJob } from "@/lib/runner/protocol";
import type { ReproductionMetadata } from "@/lib/jobs/reproduction-metadata";
import { LogCap } from "../log-cap";
import { MISSING_SCRIPT_REASON, REPRODUCE_SCRIPT, type ReproduceResult } from "../reproduce";
import { safeExtract } from "../safe-extract";
import { SecretMasker } from "../secret-masker";
import type { WholeJobBackend, WholeJobRun } from "./whole-job-backend";
import {
  CLAIM_KEY,
  DEADLINE_ALLOWANCE_S,
  FILES_CONTAINER,
  jobSecret,
  kubernetesJob,
  kubernetesNetworkPolicy,
  LABELS,
  labelValue,
  MANAGED_BY,
  objectNames,
  REPRODUCE_CONTAINER,
  RESULT_FILE,
  type PodSettings,
} from "./kubernetes-spec";

export interface KubernetesBackendOptions {
  namespace: string;
  image: string;
  runtimeClassName: string | null;
  /** The controller's name (a StatefulSet's pod name: stable across restarts, so it finds its pods again). */
  runnerName: string;
  runAsUser?: number;
  /** Default: `loadFromDefault()` (in-cluster, or KUBECONFIG / ~/.kube/config). */
  kubeConfig?: KubeConfig;
  /** Before a watch or log stream that failed is opened again (default 2 s). */
  retryMs?: number;
}

/** The studio's GPU accounting for a controller: it can ask the cluster for this many GPUs at once (`--k8s-gpus`). */
export function kubernetesGpus(count: number) {
  return Array.from({ length: count }, (_, index) => ({ index, model: "nvidia.com/gpu (Kubernetes)", memoryMiB: 0 }));
}

const GIT = "git -c 'safe.directory=*' -c core.fsmonitor=false -c core.hooksPath=/dev/null --no-pager";
/** The most kept of each listing (ls -laR, git log, git status): it rides in the completion's metadata. */
const MAX_CAPTURE_BYTES = 512 * 1024;

/**
 * Uploaded to the `files` container on the controller's stdin: the pristine archive is kept (the
 * salvage retry's fresh copy), extracted into /submission, listed as PaperBench lists it before the
 * run, and only then is `reproduce` let go. The listings go to /rubric, which `reproduce` mounts
 * read-only, so the run cannot rewrite what was there before it; a new controller reads them back.
 */
const PREPARE = `set -e
cat > /rubric/submission.tar
tar -x -f /rubric/submission.tar -C /submission
cd /submission
ls -laR . > /rubric/ls-before 2>&1 || true
if [ -e .git ] && [ "$(${GIT} rev-parse --is-inside-work-tree 2>/dev/null)" = true ]; then
  touch /rubric/is-git
  ${GIT} log > /rubric/git-log 2>&1 || true
fi
touch /rubric/go`;

type Stop = "cancel" | "leave";

/** A container waiting for one of these will not start by waiting longer (a wrong image, a missing Secret key). */
const CANNOT_START = ["ImagePullBackOff", "ErrImageNeverPull", "InvalidImageName", "CreateContainerConfigError"];

/** Why the pod's containers will never start, in words, or null. */
export function cannotStart(pod: V1Pod): string | null {
  for (const c of pod.status?.containerStatuses ?? []) {
    const waiting = c.state?.waiting;
    if (waiting?.reason && CANNOT_START.includes(waiting.reason))
      return `${c.name}: ${waiting.reason}${waiting.message ? ` (${waiting.message})` : ""}`;
  }
  return null;
}

/**
 * Each job as its own Kubernetes Job (kubernetes-spec.ts): the runner is a controller that claims
 * jobs as every runner does and holds the runner and job tokens; the pod holds neither. The
 * submission goes in and the outputs come out through pods/exec into the pod's `files` container
 * (`tar` on the controller's stdin and stdout), the log through pods/log, the end through a watch of
 * the pod. A controller that stops (SIGTERM: a rollout) leaves its pods running and its leases held;
 * started again under the same name it finds them by label, reads each claim back from the job's
 * Secret, and the runner re-adopts those whose lease the studio still renews (`adoptable`).
 */
export function kubernetesBackend(opts: KubernetesBackendOptions): WholeJobBackend {
  const kc = opts.kubeConfig ?? defaultKubeConfig();
  const batch = kc.makeApiClient(BatchV1Api);
  const core = kc.makeApiClient(CoreV1Api);
  const net = kc.makeApiClient(NetworkingV1Api);
  const exec = new Exec(kc);
  const log = new Log(kc);
  const watch = new Watch(kc);
  const namespace = opts.namespace;
  const retryMs = opts.retryMs ?? 2000;
  const settings: PodSettings = {
    namespace,
    image: opts.image,
    runtimeClassName: opts.runtimeClassName,
    runnerName: labelValue(opts.runnerName),
    runAsUser: opts.runAsUser ?? 1000,
  };
  const runnerSelector = `${LABELS.managed}=${MANAGED_BY},${LABELS.runner}=${settings.runnerName}`;
  const podSelector = (claimed: ClaimedJob) =>
    `${LABELS.job}=${claimed.job.id},${LABELS.attempt}=${claimed.job.attempt}`;

  async function ignoreMissing(call: Promise<unknown>, also: number[] = []): Promise<void> {
    try {
      await call;
    } catch (err) {
      if (err instanceof ApiException && (err.code === 404 || also.includes(err.code))) return;
      throw err;
    }
  }

  /** The Job (its pod with it), its NetworkPolicy and its Secret. */
  async function deleteObjects(claimed: ClaimedJob): Promise<void> {
    const names = objectNames(claimed);
    await Promise.all([
      ignoreMissing(batch.deleteNamespacedJob({ name: names.job, namespace, propagationPolicy: "Background" })),
      ignoreMissing(net.deleteNamespacedNetworkPolicy({ name: names.networkPolicy, namespace })),
      ignoreMissing(core.deleteNamespacedSecret({ name: names.secret, namespace })),
    ]);
  }

  async function createObjects(claimed: ClaimedJob, limits: { memoryMiB: number; diskMiB: number }): Promise<void> {
    // The policy and the Secret first: the pod never runs a moment without its policy, nor without its env.
    await ignoreMissing(
      net.createNamespacedNetworkPolicy({ namespace, body: kubernetesNetworkPolicy(claimed, settings) }),
      [409],
    );
    await ignoreMissing(core.createNamespacedSecret({ namespace, body: jobSecret(claimed, settings) }), [409]);
    await ignoreMissing(
      batch.createNamespacedJob({ namespace, body: kubernetesJob({ claimed, settings, limits }) }),
      [409],
    );
  }

  async function findPod(claimed: ClaimedJob): Promise<V1Pod | null> {
    const pods = await core.listNamespacedPod({ namespace, labelSelector: podSelector(claimed) });
    return pods.items[0] ?? null;
  }

  /** Watches the job's pod until `done(pod)` holds; resolves with that pod, or null once `stopped`. */
  async function waitForPod(
    claimed: ClaimedJob,
    done: (pod: V1Pod) => boolean,
    stopped: Promise<unknown>,
  ): Promise<V1Pod | null> {
    let stop = false;
    void stopped.then(() => (stop = true));
    while (!stop) {
      let abort: AbortController | null = null;
      const seen = await new Promise<V1Pod | null>((resolve) => {
        void stopped.then(() => resolve(null));
        watch
          .watch(
            `/api/v1/namespaces/${namespace}/pods`,
            { labelSelector: podSelector(claimed) },
            (type, pod: V1Pod) => {
              // A pod deleted under us (by hand, by the Job's TTL) has ended as surely as a failed one.
              if (type === "DELETED")
                resolve({
                  ...pod,
                  status: { ...pod.status, phase: "Failed", reason: pod.status?.reason ?? "Deleted" },
                });
              else if (done(pod)) resolve(pod);
            },
            () => resolve(null),
          )
          .then(
            (controller) => (abort = controller),
            () => resolve(null),
          );
      });
      (abort as AbortController | null)?.abort();
      if (seen || stop) return seen;
      // The watch ended (an API server's timeout, a dropped connection): look again, then watch again.
      const now = await findPod(claimed).catch(() => null);
      if (now && done(now)) return now;
      await new Promise((r) => setTimeout(r, retryMs));
    }
    return null;
  }

  /** Runs `script` in the pod's `files` container; answers its exit status (stdout to `stdout`). */
  async function execFiles(
    podName: string,
    script: string,
    stdout: Writable,
    stdin: Readable | null = null,
  ): Promise<number> {
    const stderr = new PassThrough();
    let errText = "";
    stderr.on("data", (d: Buffer) => (errText = (errText + d.toString()).slice(-2000)));
    const finished = new Promise<void>((resolve) => stdout.once("finish", resolve).once("close", resolve));
    const status = await new Promise<V1Status | null>((resolve, reject) => {
      exec
        .exec(namespace, podName, FILES_CONTAINER, ["sh", "-c", script], stdout, stderr, stdin, false, (s) =>
          resolve(s),
        )
        .then((ws) => ws.once("close", () => resolve(null)), reject);
    });
    await finished;
    if (!status) throw new Error(`the exec into ${podName} ended without a status${errText ? `: ${errText}` : ""}`);
    if (status.status === "Success") return 0;
    const code = Number(status.details?.causes?.find((c) => c.reason === "ExitCode")?.message);
    if (Number.isInteger(code)) return code;
    throw new Error(`the exec into ${podName} failed: ${status.message ?? "no reason given"}`);
  }

  /** A short command's output, secrets masked before it is cut. */
  async function capture(podName: string, script: string, secrets: string[]): Promise<string> {
    const masker = new SecretMasker(secrets);
    const cap = new LogCap(MAX_CAPTURE_BYTES, "the output");
    const decoder = new StringDecoder("utf8");
    let text = "";
    const out = new Writable({
      write(chunk: Buffer, _enc, cb) {
        text += cap.take(masker.push(decoder.write(chunk)));
        cb();
      },
    });
    await execFiles(podName, script, out);
    return text + cap.take(masker.push(decoder.end()) + masker.end());
  }

  /** Follows the `reproduce` container's log into `output` (masked); resolves when the log ends. */
  async function followLog(
    podName: string,
    secrets: string[],
    output: (text: string) => void,
    sinceTime: string | null,
  ): Promise<{ ended: Promise<void>; stop(): void }> {
    const masker = new SecretMasker(secrets);
    const decoder = new StringDecoder("utf8");
    let stopped = false;
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        if (!stopped) output(masker.push(decoder.write(chunk)));
        cb();
      },
      final(cb) {
        if (!stopped) output(masker.push(decoder.end()) + masker.end());
        cb();
      },
    });
    const ended = new Promise<void>((resolve) => sink.once("finish", resolve).once("close", resolve));
    const controller = await log.log(namespace, podName, REPRODUCE_CONTAINER, sink, {
      follow: true,
      ...(sinceTime ? { sinceTime } : {}),
    });
    return {
      ended,
      stop() {
        stopped = true;
        controller.abort();
        sink.end();
      },
    };
  }

  async function reproduceJob(run: WholeJobRun): Promise<ReproduceResult | null> {
    const { claimed } = run;
    const job = claimed.job;
    const secrets = Object.values(job.settings.secrets);
    const note = (text: string) => run.output(`[runner] ${text}\n`);
    const started = Date.now();
    let leaving = false;
    void run.shutdown.then(() => (leaving = true));
    // A cancel and a shutdown both resolve `cancelled`; a shutdown has also resolved `shutdown` by the next turn.
    const stopped = new Promise<Stop>(
      (resolve) => void run.cancelled.then(() => setImmediate(() => resolve(leaving ? "leave" : "cancel"))),
    );
    const submissionDir = path.join(run.jobDir, "submission");
    const metadata = (fields: Partial<ReproductionMetadata>): ReproductionMetadata => ({
      is_valid_git_repo: false,
      git_log: null,
      repro_script_exists: true,
      files_before_reproduce: "",
      files_after_reproduce: null,
      timedout: false,
      retried_results: [],
      repro_execution_time: null,
      git_status_after_reproduce: null,
      exit_code: null,
      runner: run.runnerName,
      gpus: run.gpuNames,
      backend: "kubernetes",
      attempt: run.attempt,
      ...fields,
    });
    const notRun = (status: ReproduceResult["status"], reason: string, fields: Partial<ReproductionMetadata> = {}) => ({
      status,
      exitCode: null,
      reason,
      metadata: metadata(fields),
      durationS: (Date.now() - started) / 1000,
      submissionDir,
      ran: false,
    });

    let existing = await findPod(claimed);
    if (existing && existing.metadata?.labels?.[LABELS.lease] !== claimed.lease.id) {
      // Another lease's pod of this very attempt (cannot normally happen): it is not ours to follow.
      await deleteObjects(claimed);
      existing = null;
    }
    const adopted = existing !== null;
    if (!adopted) {
      const script = fs.lstatSync(path.join(run.sourceRoot, REPRODUCE_SCRIPT), { throwIfNoEntry: false });
      if (!script?.isFile()) {
        // No pod at all (no GPU node brought up for nothing); the submission as it came is the output.
        note(MISSING_SCRIPT_REASON);
        fs.cpSync(run.sourceRoot, submissionDir, { recursive: true, verbatimSymlinks: true });
        return { ...notRun("failed", MISSING_SCRIPT_REASON, { repro_script_exists: false }), ran: true };
      }
      await createObjects(claimed, { memoryMiB: run.limits.memoryMiB, diskMiB: run.diskMiB });
      note(`created Kubernetes Job ${objectNames(claimed).job} in namespace ${namespace}`);
    } else note(`re-adopted the running pod ${existing!.metadata!.name} after a controller restart`);

    const stopWith = async (why: Stop, log?: { stop(): void }) => {
      log?.stop();
      if (why === "leave") return null;
      note("stopping: deleting the Kubernetes Job");
      await deleteObjects(claimed);
      return notRun("cancelled", "cancelled by staff");
    };
    const terminal = (pod: V1Pod) => pod.status?.phase === "Failed" || pod.status?.phase === "Succeeded";
    const containerState = (pod: V1Pod, name: string) =>
      pod.status?.containerStatuses?.find((c) => c.name === name)?.state;
    const deadlineExceeded = (pod: V1Pod) => pod.status?.phase === "Failed" && pod.status.reason === "DeadlineExceeded";

    const ready = await Promise.race([
      waitForPod(
        claimed,
        (pod) => terminal(pod) || !!cannotStart(pod) || containerState(pod, FILES_CONTAINER)?.running !== undefined,
        stopped,
      ),
      stopped,
    ]);
    if (ready === "cancel" || ready === "leave") return stopWith(ready);
    if (ready === null) return stopWith(await stopped);
    const podName = ready.metadata!.name!;
    if (deadlineExceeded(ready)) return timedOutPod();
    const stuck = cannotStart(ready);
    if (stuck) {
      note(`the job's pod cannot start: ${stuck}`);
      await deleteObjects(claimed);
      return notRun("failed", `the job's pod cannot start: ${stuck}`);
    }
    if (terminal(ready)) {
      await deleteObjects(claimed);
      return notRun("failed", `the job's pod ended before it ran (${ready.status?.reason ?? ready.status?.phase})`);
    }

    const started2 = adopted && (await execFiles(podName, "test -e /rubric/go", new PassThrough().resume())) === 0;
    const logStream = await followLog(podName, secrets, run.output, adopted ? new Date().toISOString() : null);
    if (adopted && started2)
      note("the lines reproduce.sh wrote while no controller was watching are in its reproduce.log (in the outputs)");
    if (!started2) {
      // The extracted submission, as a tar stream from here into the pod (`tar -x` there).
      const upload = spawn("tar", ["-c", "-f", "-", "-C", run.sourceRoot, "."], { stdio: ["ignore", "pipe", "pipe"] });
      let uploadErr = "";
      upload.stderr.on("data", (d: Buffer) => (uploadErr = (uploadErr + d.toString()).slice(-2000)));
      // Piped at once: Node resumes (and so drops) a child's unread stdout when the child exits.
      const body = upload.stdout.pipe(new PassThrough());
      const code = await execFiles(podName, PREPARE, new PassThrough().resume(), body);
      if (code !== 0) {
        if (uploadErr) note(`tar: ${uploadErr.trim()}`);
        logStream.stop();
        await deleteObjects(claimed);
        return notRun("failed", `the submission could not be copied into the pod (exit status ${code})`);
      }
    }

    const ended = await Promise.race([
      waitForPod(
        claimed,
        (pod) => terminal(pod) || containerState(pod, REPRODUCE_CONTAINER)?.terminated !== undefined,
        stopped,
      ),
      stopped,
    ]);
    if (ended === "cancel" || ended === "leave") return stopWith(ended, logStream);
    if (ended === null) return stopWith(await stopped, logStream);
    if (deadlineExceeded(ended)) {
      logStream.stop();
      return timedOutPod();
    }
    const terminated = containerState(ended, REPRODUCE_CONTAINER)?.terminated;
    if (!terminated) {
      logStream.stop();
      await deleteObjects(claimed);
      return notRun("failed", `the job's pod ended unexpectedly (${ended.status?.reason ?? ended.status?.phase})`);
    }
    // The log ends with the container; a stream the API server cut short is not waited for forever.
    await Promise.race([logStream.ended, new Promise((r) => setTimeout(r, 30_000).unref())]);
    logStream.stop();

    const read = (file: string) => capture(podName, `cat ${file} 2>/dev/null || true`, secrets);
    const isGit = (await execFiles(podName, "test -e /rubric/is-git", new PassThrough().resume())) === 0;
    const before = await read("/rubric/ls-before");
    const gitLog = isGit ? await read("/rubric/git-log") : null;
    const after = await capture(podName, "cd /submission && ls -laR . 2>&1", secrets);
    const gitStatus = isGit ? await capture(podName, `cd /submission && ${GIT} status 2>&1`, secrets) : null;
    const result = parseResult(await read(RESULT_FILE));

    const archive = path.join(run.jobDir, "outputs-from-pod.tar");
    const out = fs.createWriteStream(archive);
    const tarCode = await execFiles(podName, "tar -c -f - -C /submission .", out);
    if (tarCode !== 0) throw new Error(`the outputs could not be read from the pod (tar exit status ${tarCode})`);
    await safeExtract(archive, submissionDir);
    fs.rmSync(archive, { force: true });
    await execFiles(podName, "touch /rubric/collected", new PassThrough().resume()).catch(() => undefined);
    await deleteObjects(claimed);

    const exitCode = terminated.exitCode ?? null;
    const timedOut = result?.timedout ?? false;
    const runMetadata = metadata({
      is_valid_git_repo: isGit,
      git_log: gitLog,
      files_before_reproduce: before,
      files_after_reproduce: after,
      timedout: timedOut,
      retried_results: result?.retried ?? [],
      repro_execution_time: result?.seconds ?? null,
      git_status_after_reproduce: gitStatus,
      exit_code: exitCode,
    });
    const durationS = (Date.now() - started) / 1000;
    const base = { metadata: runMetadata, durationS, submissionDir, ran: true };
    if (timedOut)
      return {
        ...base,
        status: "timed_out",
        exitCode: null,
        reason: `reproduce.sh ran past its timeout of ${job.settings.timeoutS} s and was stopped`,
      };
    if (exitCode === 0) return { ...base, status: "succeeded", exitCode: 0, reason: null };
    const reason =
      terminated.reason === "OOMKilled"
        ? `reproduce.sh hit the memory limit of ${run.limits.memoryMiB} MiB`
        : `reproduce.sh exited with status ${exitCode}`;
    return { ...base, status: "failed", exitCode, reason };

    async function timedOutPod(): Promise<ReproduceResult> {
      note(
        `the pod ran past its activeDeadlineSeconds (the timeout of ${job.settings.timeoutS} s and ${DEADLINE_ALLOWANCE_S} s to move files): its outputs are lost`,
      );
      await deleteObjects(claimed);
      return {
        ...notRun("timed_out", `reproduce.sh ran past its timeout of ${job.settings.timeoutS} s and was stopped`, {
          timedout: true,
        }),
      };
    }
  }

  return {
    name: "kubernetes",
    notices: (s) => [
      `the kubernetes backend does not enforce the process limit (${s.limits.processes}): set the kubelet's podPidsLimit`,
    ],
    spawnJob() {
      throw new Error("the kubernetes backend runs whole jobs (reproduceJob), not single commands");
    },
    reproduceJob,
    async adoptable() {
      const jobs = await batch.listNamespacedJob({ namespace, labelSelector: runnerSelector });
      const claims: ClaimedJob[] = [];
      for (const item of jobs.items) {
        const name = item.metadata?.name;
        if (!name) continue;
        const secret = await core.readNamespacedSecret({ name: `${name}-env`, namespace }).catch(() => null);
        const raw = secret?.data?.[CLAIM_KEY];
        const parsed = raw ? claimedJobSchema.safeParse(JSON.parse(Buffer.from(raw, "base64").toString("utf8"))) : null;
        if (parsed?.success) claims.push(parsed.data);
        else await ignoreMissing(batch.deleteNamespacedJob({ name, namespace, propagationPolicy: "Background" }));
      }
      return claims;
    },
    discard: deleteObjects,
  };
}

function parseResult(
  text: string,
): { status: number; seconds: number; timedout: boolean; retried: ReproductionMetadata["retried_results"] } | null {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function defaultKubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromDefault();
  return kc;
}

/** In a cluster, the namespace the controller runs in; elsewhere `default`. */
export function defaultNamespace(): string {
  try {
    return fs.readFileSync("/var/run/secrets/kubernetes.io/serviceaccount/namespace", "utf8").trim() || "default";
  } catch {
    return "default";
  }
}
