import { describe, expect, it } from "vitest";
import type { ClaimedJob } from "@/lib/runner/protocol";
import {
  FILES_CONTAINER,
  jobSecret,
  kubernetesJob,
  kubernetesNetworkPolicy,
  LABELS,
  labelValue,
  PRIVATE_RANGES,
  REPRODUCE_CONTAINER,
  type PodSettings,
} from "./kubernetes-spec";

const JOB_ID = "6f1c1e0e-8a4b-4d53-9d3c-2f5a3c1d9b10";
const LEASE_ID = "0b7e3f4c-1d2a-4e5f-8a9b-0c1d2e3f4a5b";

function claim(over: Partial<ClaimedJob["job"]["settings"]> = {}, gpuIndices: number[] = [0, 1]): ClaimedJob {
  return {
    job: {
      id: JOB_ID,
      kind: "reproduce",
      attempt: 2,
      submissionId: "1e2d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b",
      paperId: "paper",
      gpuIndices,
      settings: {
        timeoutS: 7200,
        gpus: gpuIndices.length,
        network: false,
        secrets: { HF_TOKEN: "hf_secret" },
        salvageRetryBelowS: 600,
        maxOutputFileBytes: 1024,
        ...over,
      },
    },
    lease: { id: LEASE_ID, expiresAt: "2026-01-01T00:00:00Z", leaseS: 120, heartbeatS: 30 },
    jobToken: "rst_job_the-token",
  };
}

const settings: PodSettings = {
  namespace: "rubric-jobs",
  image: "pb-reproducer:1",
  runtimeClassName: "gvisor",
  runnerName: "controller-0",
  runAsUser: 1000,
};

describe("the Job of one reproduction", () => {
  const job = kubernetesJob({ claimed: claim(), settings, limits: { memoryMiB: 4096, diskMiB: 20480 } });
  const pod = job.spec!.template.spec!;
  const reproduce = pod.containers.find((c) => c.name === REPRODUCE_CONTAINER)!;
  const files = pod.containers.find((c) => c.name === FILES_CONTAINER)!;

  it("runs once, without retries, within the paper's timeout and the time to move files", () => {
    expect(job.apiVersion).toBe("batch/v1");
    expect(job.spec!.backoffLimit).toBe(0);
    expect(pod.restartPolicy).toBe("Never");
    expect(pod.activeDeadlineSeconds).toBe(7200 + 30 * 60);
    expect(reproduce.env).toContainEqual({ name: "RUBRIC_TIMEOUT_S", value: "7200" });
    expect(reproduce.env).toContainEqual({ name: "RUBRIC_SALVAGE_BELOW_S", value: "600" });
  });

  it("asks for the job's GPUs and holds it to the paper's memory and disk", () => {
    expect(reproduce.resources!.limits).toEqual({
      memory: "4096Mi",
      "ephemeral-storage": "20480Mi",
      "nvidia.com/gpu": "2",
    });
    expect(reproduce.resources!.requests!["nvidia.com/gpu"]).toBe("2");
    expect(pod.volumes!.find((v) => v.name === "submission")!.emptyDir!.sizeLimit).toBe("20480Mi");
    const cpuOnly = kubernetesJob({ claimed: claim({}, []), settings, limits: { memoryMiB: 1024, diskMiB: 1024 } });
    expect(cpuOnly.spec!.template.spec!.containers[0].resources!.limits).not.toHaveProperty("nvidia.com/gpu");
    expect(pod.tolerations).toEqual([{ key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }]);
    expect(cpuOnly.spec!.template.spec).not.toHaveProperty("tolerations");
  });

  it("is locked down: no service-account token, non-root, no privilege, read-only root, the runtime class asked for", () => {
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.enableServiceLinks).toBe(false);
    expect(pod.runtimeClassName).toBe("gvisor");
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    for (const c of pod.containers)
      expect(c.securityContext).toEqual({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ["ALL"] },
      });
    expect(reproduce.volumeMounts).toEqual([
      { name: "submission", mountPath: "/submission" },
      { name: "tmp", mountPath: "/tmp" },
      { name: "control", mountPath: "/rubric", readOnly: true },
    ]);
    expect(files.volumeMounts!.map((m) => m.mountPath)).toEqual(["/submission", "/job-tmp", "/rubric"]);
    const noRuntime = kubernetesJob({
      claimed: claim(),
      settings: { ...settings, runtimeClassName: null },
      limits: { memoryMiB: 1, diskMiB: 1 },
    });
    expect(noRuntime.spec!.template.spec).not.toHaveProperty("runtimeClassName");
  });

  it("holds no token nor studio address; the paper's secrets only by reference to the job's Secret", () => {
    const text = JSON.stringify(job);
    expect(text).not.toContain("rst_job_the-token");
    expect(text).not.toContain("hf_secret");
    expect(reproduce.env).toContainEqual({
      name: "HF_TOKEN",
      valueFrom: { secretKeyRef: { name: `rubric-job-${JOB_ID}-2-env`, key: "env.HF_TOKEN" } },
    });
    expect(files.env).toEqual([{ name: "LANG", value: "C.UTF-8" }]);
    const secret = jobSecret(claim(), settings);
    expect(secret.stringData!["env.HF_TOKEN"]).toBe("hf_secret");
    expect(JSON.parse(secret.stringData!["claim.json"]).jobToken).toBe("rst_job_the-token");
  });

  it("carries the runner, job, lease and attempt as labels on the Job and its pod", () => {
    const labels = {
      "app.kubernetes.io/managed-by": "rubric-studio-runner",
      [LABELS.runner]: "controller-0",
      [LABELS.job]: JOB_ID,
      [LABELS.lease]: LEASE_ID,
      [LABELS.attempt]: "2",
    };
    expect(job.metadata!.labels).toEqual(labels);
    expect(job.spec!.template.metadata!.labels).toEqual(labels);
    expect(job.metadata!.name).toBe(`rubric-job-${JOB_ID}-2`);
    expect(job.metadata!.name!.length).toBeLessThanOrEqual(63);
  });

  it("label values stay valid for any runner name", () => {
    expect(labelValue("gpu box #1")).toBe("gpu-box--1");
    const long = labelValue("x".repeat(100));
    expect(long.length).toBeLessThanOrEqual(63);
    expect(long).toMatch(/^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/);
    expect(labelValue("x".repeat(100))).not.toBe(labelValue(`${"x".repeat(99)}y`));
  });
});

describe("the NetworkPolicy of one reproduction", () => {
  it("denies all ingress, and all egress when the paper's network setting is off", () => {
    const policy = kubernetesNetworkPolicy(claim({ network: false }), settings);
    expect(policy.spec).toEqual({
      podSelector: { matchLabels: { [LABELS.job]: JOB_ID, [LABELS.attempt]: "2" } },
      policyTypes: ["Ingress", "Egress"],
      ingress: [],
      egress: [],
    });
  });

  it("with the network on, lets it reach the internet and kube-dns, never a private or cluster range", () => {
    const policy = kubernetesNetworkPolicy(claim({ network: true }), settings);
    expect(policy.spec!.ingress).toEqual([]);
    expect(policy.spec!.egress).toEqual([
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
    ]);
    expect(PRIVATE_RANGES).toEqual([
      "10.0.0.0/8",
      "172.16.0.0/12",
      "192.168.0.0/16",
      "100.64.0.0/10",
      "169.254.0.0/16",
    ]);
  });
});
