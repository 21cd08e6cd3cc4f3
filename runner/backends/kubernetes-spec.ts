import crypto from "node:crypto";
import type { V1Job, V1NetworkPolicy, V1Secret } from "@kubernetes/client-node";
import { CREATION_TIME_FILE } from "@/lib/jobs/outputs-index";
import type { ClaimedJob } from "@/lib/runner/protocol";
import { REPRODUCE_COMMAND, REPRODUCE_LOG } from "../reproduce";

/**
 * The Kubernetes objects of one reproduction (pure: kubernetes-spec.test.ts reads them). Each job is
 * a batch/v1 Job of one pod with two containers sharing emptyDir volumes:
 *
 * - `reproduce` runs PaperBench's command on the reproducer image: it waits until /rubric/go exists
 *   (the controller has uploaded the submission), writes reproduce.log.creation_time, runs
 *   `bash reproduce.sh` teed to /submission/reproduce.log under the paper's timeout (and the salvage
 *   retry on a fresh copy), writes its result to /tmp/.rubric-result and exits with reproduce.sh's status.
 * - `files` only sleeps until /rubric/collected exists: it is what the controller execs into
 *   (pods/exec) to upload the submission (`tar -x` from the controller's stdin), to list the files
 *   before and after (ls, git), and to read the outputs back (`tar -c`) once `reproduce` has ended,
 *   since a terminated container cannot be exec'd into and the volumes live as long as the pod.
 *
 * Neither holds a token, the studio's address or a service-account token: the pod can reach nothing
 * of the studio's, and its NetworkPolicy lets it reach the internet only when the paper allows it.
 */

export const LABELS = {
  /** Every object this backend makes: what the RBAC and the re-adoption list by. */
  managed: "app.kubernetes.io/managed-by",
  runner: "rubric-studio/runner",
  job: "rubric-studio/job",
  lease: "rubric-studio/lease",
  attempt: "rubric-studio/attempt",
} as const;
export const MANAGED_BY = "rubric-studio-runner";
export const REPRODUCE_CONTAINER = "reproduce";
export const FILES_CONTAINER = "files";
/** Where the `reproduce` container writes its result (JSON), read through `files` once it has ended. */
export const RESULT_FILE = "/job-tmp/.rubric-result";
/** The Secret's key holding the claim (its job token): the controller's only, never given to the pod. */
export const CLAIM_KEY = "claim.json";
/** Time past the paper's timeout for the upload, the listings and collecting the outputs. */
export const DEADLINE_ALLOWANCE_S = 30 * 60;

/** The private and cluster ranges the pod may never reach, even with the network on. */
export const PRIVATE_RANGES = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16"];

export interface PodSettings {
  namespace: string;
  image: string;
  runtimeClassName: string | null;
  /** The controller's name, as a label value (`labelValue`). */
  runnerName: string;
  runAsUser: number;
}

export interface JobObjectNames {
  job: string;
  secret: string;
  networkPolicy: string;
}

/** A label value (at most 63 characters of [A-Za-z0-9._-], alphanumeric at both ends); long names keep a hash. */
export function labelValue(text: string): string {
  let value = text.replace(/[^A-Za-z0-9._-]/g, "-");
  if (value.length > 63)
    value = `${value.slice(0, 50)}-${crypto.createHash("sha256").update(text).digest("hex").slice(0, 12)}`;
  return value.replace(/^[^A-Za-z0-9]+/, "").replace(/[^A-Za-z0-9]+$/, "") || "runner";
}

export function objectNames(claimed: ClaimedJob): JobObjectNames {
  const base = `rubric-job-${claimed.job.id}-${claimed.job.attempt}`;
  return { job: base, secret: `${base}-env`, networkPolicy: `${base}-net` };
}

export function jobLabels(claimed: ClaimedJob, settings: Pick<PodSettings, "runnerName">): Record<string, string> {
  return {
    [LABELS.managed]: MANAGED_BY,
    [LABELS.runner]: settings.runnerName,
    [LABELS.job]: claimed.job.id,
    [LABELS.lease]: claimed.lease.id,
    [LABELS.attempt]: String(claimed.job.attempt),
  };
}

/** A secret's name as a Secret key: environment variable names are already [A-Za-z_][A-Za-z0-9_]*, and keys allow those. */
function envKey(name: string): string {
  return `env.${name}`;
}

/**
 * The job's Secret: the paper's secrets (the pod's env refers to them by key) and the claim itself,
 * which only the controller reads back, to re-adopt the job after a restart (its job token renews the
 * lease). The pod cannot read it: it has no service-account token, and env takes only the keys named.
 */
export function jobSecret(claimed: ClaimedJob, settings: PodSettings): V1Secret {
  const stringData: Record<string, string> = { [CLAIM_KEY]: JSON.stringify(claimed) };
  for (const [name, value] of Object.entries(claimed.job.settings.secrets)) stringData[envKey(name)] = value;
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: {
      name: objectNames(claimed).secret,
      namespace: settings.namespace,
      labels: jobLabels(claimed, settings),
    },
    type: "Opaque",
    stringData,
  };
}

/**
 * The `reproduce` container's script: PaperBench's `run_reproduce_script` (rm -rf venv .venv, bash
 * reproduce.sh, stderr into stdout, teed to reproduce.log) with the runner's fixes: the exit status is
 * kept (PIPESTATUS, not tee's), the command every backend runs (REPRODUCE_COMMAND: none of its words
 * holds a single quote), a failed run shorter than the salvage threshold is retried on a fresh
 * copy, and the timeout is `timeout`'s (TERM, then KILL 10 s later). Its settings come from the env.
 */
export const REPRODUCE_WRAPPER = String.raw`set -u
while [ ! -e /rubric/go ]; do sleep 1; done
mkdir -p /tmp/home
retried=""
run() {
  cd /submission || exit 1
  start=$(date +%s)
  date +%s > ${CREATION_TIME_FILE}
  timeout -k 10 "$RUBRIC_TIMEOUT_S" ${REPRODUCE_COMMAND.map((word) => `'${word}'`).join(" ")} 2>&1 | tee ${REPRODUCE_LOG}
  status=${"$"}{PIPESTATUS[0]}
  seconds=$(( $(date +%s) - start ))
  timedout=false
  if [ "$status" -eq 124 ] && [ "$seconds" -ge "$RUBRIC_TIMEOUT_S" ]; then timedout=true; fi
}
run
if [ "$status" -ne 0 ] && [ "$timedout" = false ] && [ "$seconds" -lt "$RUBRIC_SALVAGE_BELOW_S" ]; then
  echo "[runner] reproduce.sh failed after $seconds s (under $RUBRIC_SALVAGE_BELOW_S s): salvage retry on a fresh copy"
  retried="{\"repro_execution_time\":$seconds,\"timedout\":false,\"exit_code\":$status}"
  cd / && find /submission -mindepth 1 -delete && tar -x -f /rubric/submission.tar -C /submission
  run
fi
printf '{"status":%s,"seconds":%s,"timedout":%s,"retried":[%s]}\n' "$status" "$seconds" "$timedout" "$retried" > /tmp/.rubric-result
exit "$status"
`;

/** The `files` container's script: it holds the volumes open for the controller's execs until told it has the outputs. */
export const FILES_WAITER = "while [ ! -e /rubric/collected ]; do sleep 1; done";

export interface JobSpecInput {
  claimed: ClaimedJob;
  settings: PodSettings;
  limits: { memoryMiB: number; diskMiB: number };
}

export function kubernetesJob({ claimed, settings, limits }: JobSpecInput): V1Job {
  const names = objectNames(claimed);
  const labels = jobLabels(claimed, settings);
  const job = claimed.job;
  const gpus = job.gpuIndices.length;
  const containerSecurity = {
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ["ALL"] },
  };
  const env = [
    { name: "LANG", value: "C.UTF-8" },
    // The paper's secrets, by reference: the pod spec never holds their values.
    ...Object.keys(job.settings.secrets).map((name) => ({
      name,
      valueFrom: { secretKeyRef: { name: names.secret, key: envKey(name) } },
    })),
    { name: "HOME", value: "/tmp/home" },
    { name: "TMPDIR", value: "/tmp" },
    { name: "RUBRIC_TIMEOUT_S", value: String(job.settings.timeoutS) },
    { name: "RUBRIC_SALVAGE_BELOW_S", value: String(job.settings.salvageRetryBelowS) },
  ];
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: names.job, namespace: settings.namespace, labels },
    spec: {
      backoffLimit: 0,
      // The controller deletes it once its outputs are read; this only cleans up after a lost controller.
      ttlSecondsAfterFinished: 24 * 60 * 60,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: "Never",
          // Counted from the pod's start, so a GPU node being added does not eat into it.
          activeDeadlineSeconds: job.settings.timeoutS + DEADLINE_ALLOWANCE_S,
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          ...(settings.runtimeClassName ? { runtimeClassName: settings.runtimeClassName } : {}),
          // GPU nodes are usually tainted so that only pods asking for GPUs land there.
          ...(gpus > 0 ? { tolerations: [{ key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }] } : {}),
          securityContext: {
            runAsNonRoot: true,
            runAsUser: settings.runAsUser,
            runAsGroup: settings.runAsUser,
            fsGroup: settings.runAsUser,
            seccompProfile: { type: "RuntimeDefault" },
          },
          containers: [
            {
              name: REPRODUCE_CONTAINER,
              image: settings.image,
              command: ["bash", "-c", REPRODUCE_WRAPPER],
              workingDir: "/submission",
              env,
              securityContext: containerSecurity,
              resources: {
                requests: { memory: `${limits.memoryMiB}Mi`, ...(gpus > 0 ? { "nvidia.com/gpu": String(gpus) } : {}) },
                limits: {
                  memory: `${limits.memoryMiB}Mi`,
                  "ephemeral-storage": `${limits.diskMiB}Mi`,
                  ...(gpus > 0 ? { "nvidia.com/gpu": String(gpus) } : {}),
                },
              },
              volumeMounts: [
                { name: "submission", mountPath: "/submission" },
                { name: "tmp", mountPath: "/tmp" },
                { name: "control", mountPath: "/rubric", readOnly: true },
              ],
            },
            {
              name: FILES_CONTAINER,
              image: settings.image,
              command: ["sh", "-c", FILES_WAITER],
              env: [{ name: "LANG", value: "C.UTF-8" }],
              securityContext: containerSecurity,
              resources: { requests: { cpu: "50m", memory: "64Mi" }, limits: { memory: "256Mi" } },
              volumeMounts: [
                { name: "submission", mountPath: "/submission" },
                { name: "tmp", mountPath: "/job-tmp", readOnly: true },
                { name: "control", mountPath: "/rubric" },
              ],
            },
          ],
          volumes: [
            { name: "submission", emptyDir: { sizeLimit: `${limits.diskMiB}Mi` } },
            { name: "tmp", emptyDir: { sizeLimit: `${limits.diskMiB}Mi` } },
            { name: "control", emptyDir: { sizeLimit: `${limits.diskMiB}Mi` } },
          ],
        },
      },
    },
  };
}

/**
 * The pod's network: no ingress at all; egress none when the paper's network setting is off, else
 * the internet only (never the cluster's or a private range, so not the studio nor the cloud's
 * metadata service) and DNS to kube-dns. Enforced only where the cluster's CNI enforces
 * NetworkPolicies (Calico, Cilium; not kindnet or flannel alone).
 */
export function kubernetesNetworkPolicy(claimed: ClaimedJob, settings: PodSettings): V1NetworkPolicy {
  const names = objectNames(claimed);
  const egress = claimed.job.settings.network
    ? [
        { to: [{ ipBlock: { cidr: "0.0.0.0/0", except: PRIVATE_RANGES } }] },
        {
          to: [
            {
              namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kube-system" } },
              podSelector: { matchLabels: { "k8s-app": "kube-dns" } },
            },
          ],
          ports: [
            { protocol: "UDP", port: 53 },
            { protocol: "TCP", port: 53 },
          ],
        },
      ]
    : [];
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: names.networkPolicy, namespace: settings.namespace, labels: jobLabels(claimed, settings) },
    spec: {
      podSelector: { matchLabels: { [LABELS.job]: claimed.job.id, [LABELS.attempt]: String(claimed.job.attempt) } },
      policyTypes: ["Ingress", "Egress"],
      ingress: [],
      egress,
    },
  };
}
