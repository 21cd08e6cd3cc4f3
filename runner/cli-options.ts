import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { RUNNER_BACKENDS, type RunnerBackend } from "@/lib/runner/protocol";
import { DEFAULT_DOCKER_IMAGE } from "./backends/docker";
import { defaultNamespace } from "./backends/kubernetes";
import { DEFAULT_MAX_LOG_BYTES } from "./log-cap";

export interface RunnerOptions {
  url: string;
  token: string;
  name: string;
  /** Null: the default, decided once GPUs and bwrap are known (`resolveDefaults`). */
  backend: RunnerBackend | null;
  workDir: string;
  /** Null: one per GPU, at least one. */
  maxJobs: number | null;
  dockerImage: string;
  /** A job's whole log, and each run's reproduce.log, are cut here with a marker line (default 1 GiB). */
  maxLogBytes: number;
  kubernetes: KubernetesRunnerOptions;
}

/** `--backend kubernetes`: where and how each job's pod runs (runner/backends/kubernetes.ts). */
export interface KubernetesRunnerOptions {
  namespace: string;
  image: string;
  /** e.g. gvisor (a RuntimeClass whose handler is runsc); null: the cluster's default runtime. */
  runtimeClassName: string | null;
  /** How many GPUs this controller offers the studio (the most its jobs ask the cluster for at once). */
  gpus: number;
}

/** The options, and what the runner says before it starts (a token on the command line). */
export type ParsedRunnerOptions = RunnerOptions & { warnings: string[] };

export const USAGE = `usage: RUNNER_TOKEN=<runner token> npm run runner -- --url <studio> [--name <name>] [--backend sandbox|local|docker] [--work-dir <dir>] [--max-jobs <n>] [--docker-image <image>] [--max-log-bytes <n>]
  [--k8s-namespace <ns>] [--k8s-image <image>] [--k8s-runtime-class <name>] [--k8s-gpus <n>]
  --token <runner token> is still read, but ps and npm show it to every user of the machine;
  RUNNER_DOCKER_IMAGE may stand for --docker-image, RUNNER_MAX_LOG_BYTES for --max-log-bytes (default 1 GiB);
  --backend kubernetes runs each job as a Kubernetes Job (kubeconfig: in-cluster or KUBECONFIG); RUNNER_K8S_NAMESPACE,
  RUNNER_K8S_IMAGE, RUNNER_K8S_RUNTIME_CLASS and RUNNER_K8S_GPUS may stand for its options.`;

/** Said when the token came on the command line: any local user can read a process's arguments. */
export const TOKEN_ON_COMMAND_LINE_WARNING =
  "warning: the runner token was given with --token, which every user of this machine can read in process listings (ps, /proc/<pid>/cmdline, npm's own command line); set RUNNER_TOKEN instead";

export class UsageError extends Error {}

/** The runner's command line (and RUNNER_TOKEN, RUNNER_DOCKER_IMAGE), checked; the token is never echoed. */
export function parseRunnerOptions(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
): ParsedRunnerOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        url: { type: "string" },
        token: { type: "string" },
        name: { type: "string" },
        backend: { type: "string" },
        "work-dir": { type: "string" },
        "max-jobs": { type: "string" },
        "docker-image": { type: "string" },
        "max-log-bytes": { type: "string" },
        "k8s-namespace": { type: "string" },
        "k8s-image": { type: "string" },
        "k8s-runtime-class": { type: "string" },
        "k8s-gpus": { type: "string" },
      },
      strict: true,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const url = values.url;
  if (!url) throw new UsageError("--url is required: the studio's address, e.g. http://127.0.0.1:3000");
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error();
  } catch {
    throw new UsageError(`--url must be an http(s) address, not ${JSON.stringify(url)}`);
  }
  const token = values.token ?? env.RUNNER_TOKEN;
  if (!token)
    throw new UsageError(
      "RUNNER_TOKEN is required: a runner token created at /runners (set it in the environment, not with --token)",
    );
  const warnings = values.token !== undefined ? [TOKEN_ON_COMMAND_LINE_WARNING] : [];
  const backend = values.backend ?? null;
  if (backend !== null && !(RUNNER_BACKENDS as readonly string[]).includes(backend))
    throw new UsageError(`--backend must be one of ${RUNNER_BACKENDS.join(", ")}`);
  let maxJobs: number | null = null;
  if (values["max-jobs"] !== undefined) {
    maxJobs = Number(values["max-jobs"]);
    if (!Number.isInteger(maxJobs) || maxJobs < 1 || maxJobs > 64)
      throw new UsageError("--max-jobs must be a whole number from 1 to 64");
  }
  const maxLogText = values["max-log-bytes"] ?? env.RUNNER_MAX_LOG_BYTES;
  const maxLogBytes = maxLogText === undefined || maxLogText === "" ? DEFAULT_MAX_LOG_BYTES : Number(maxLogText);
  if (!Number.isSafeInteger(maxLogBytes) || maxLogBytes < 1024)
    throw new UsageError("--max-log-bytes (RUNNER_MAX_LOG_BYTES) must be a whole number of bytes, at least 1024");
  const name = values.name?.trim() || os.hostname();
  const dockerImage = values["docker-image"] ?? env.RUNNER_DOCKER_IMAGE ?? DEFAULT_DOCKER_IMAGE;
  const k8sGpus = Number(values["k8s-gpus"] ?? env.RUNNER_K8S_GPUS ?? "0");
  if (!Number.isInteger(k8sGpus) || k8sGpus < 0 || k8sGpus > 64)
    throw new UsageError("--k8s-gpus (RUNNER_K8S_GPUS) must be a whole number from 0 to 64");
  return {
    url,
    token,
    name,
    backend: backend as RunnerBackend | null,
    workDir: path.resolve(
      values["work-dir"] ?? path.join(os.tmpdir(), `rubric-runner-${name.replace(/[^a-zA-Z0-9_.-]/g, "-")}`),
    ),
    maxJobs,
    dockerImage,
    maxLogBytes,
    kubernetes: {
      namespace: values["k8s-namespace"] ?? env.RUNNER_K8S_NAMESPACE ?? defaultNamespace(),
      image: values["k8s-image"] ?? env.RUNNER_K8S_IMAGE ?? dockerImage,
      runtimeClassName: values["k8s-runtime-class"] || env.RUNNER_K8S_RUNTIME_CLASS || null,
      gpus: k8sGpus,
    },
    warnings,
  };
}
