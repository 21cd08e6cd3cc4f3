import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import * as tar from "tar-stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { completeRequestSchema, logsRequestSchema, type ClaimedJob, type CompleteRequest } from "@/lib/runner/protocol";
import { startFakeKubernetes, type FakeKubernetes } from "@/test/fake-kubernetes-api";
import { startRunner, type RunningRunner } from "../runner-loop";
import { claimedJobFixture, listenStandIn } from "../claimed-job.testutil";
import { tarBuffer } from "../tar.testutil";
import { objectNames } from "./kubernetes-spec";

/**
 * The whole runner with `--backend kubernetes`: a stand-in studio (the runner protocol, one job) and
 * the fake Kubernetes API (test/fake-kubernetes-api.ts), found through KUBECONFIG as in a real
 * deployment. What the studio receives (log, outputs, completion) and what happens to the pod when
 * the runner restarts. Every wait is on an event: a request reaching one of the two servers.
 */

interface FakeStudio {
  url: string;
  claimed: ClaimedJob;
  logs: Map<number, string>;
  outputs: Buffer | null;
  completions: CompleteRequest[];
  calls: string[];
  /** From then on, everything under the job's lease is refused as stale. */
  stale: boolean;
  until<T>(check: () => T | null | undefined | false): Promise<T>;
  close(): Promise<void>;
}

async function fakeStudio(script: string): Promise<FakeStudio> {
  const archive = gzipSync(await tarBuffer([{ name: "reproduce.sh", mode: 0o755, content: script }]));
  const claimed = claimedJobFixture({ settings: { network: true } });
  const jobId = claimed.job.id;
  const waiters = new Set<() => void>();
  const changed = () => [...waiters].forEach((w) => w());
  let claims = 0;
  const studio: FakeStudio = {
    url: "",
    claimed,
    logs: new Map(),
    outputs: null,
    completions: [],
    calls: [],
    stale: false,
    until<T>(check: () => T | null | undefined | false) {
      return new Promise<T>((resolve) => {
        const attempt = () => {
          const value = check();
          if (value) {
            waiters.delete(attempt);
            resolve(value);
          }
        };
        waiters.add(attempt);
        attempt();
      });
    },
    close: async () => undefined,
  };
  const server = await listenStandIn(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = req.url ?? "";
    studio.calls.push(url.replace(jobId, ":id"));
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
      changed();
    };
    if (url === "/api/runner/register") return json(200, { runnerId: randomUUID() });
    if (url === "/api/runner/claim") {
      // One job, to the first runner that asks; later claims wait until the runner hangs up.
      if (claims++ === 0) return json(200, studio.claimed);
      return;
    }
    if (studio.stale) return json(409, { error: { code: "stale_lease", message: "lease moved on" } });
    if (url.endsWith("/submission")) {
      res.writeHead(200, { "content-type": "application/gzip" }).end(archive);
      return changed();
    }
    if (url.endsWith("/heartbeat")) return json(200, { leaseExpiresAt: new Date().toISOString(), cancel: false });
    // Held open, as the studio holds it, until the runner hangs up.
    if (url.endsWith("/wait-cancel")) return changed();
    if (url.endsWith("/logs")) {
      for (const chunk of logsRequestSchema.parse(JSON.parse(body.toString())).chunks)
        studio.logs.set(chunk.seq, chunk.text);
      return json(200, {});
    }
    if (url.endsWith("/outputs")) {
      studio.outputs = body;
      return json(200, {});
    }
    if (url.endsWith("/complete")) {
      studio.completions.push(completeRequestSchema.parse(JSON.parse(body.toString())));
      return json(200, {});
    }
    json(404, { error: { code: "not_found", message: url } });
  });
  studio.url = server.url;
  studio.close = server.close;
  return studio;
}

const logText = (studio: FakeStudio) =>
  [...studio.logs.keys()]
    .sort((a, b) => a - b)
    .map((seq) => studio.logs.get(seq))
    .join("");

async function outputFiles(archive: Buffer): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const extract = tar.extract();
  extract.on("entry", (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c) => void chunks.push(c as Buffer));
    stream.on("end", () => {
      files.set(header.name.replace(/^\.\//, ""), Buffer.concat(chunks).toString("utf8"));
      next();
    });
  });
  await new Promise<void>((resolve, reject) => {
    extract.on("finish", resolve).on("error", reject);
    extract.end(gunzipSync(archive));
  });
  return files;
}

let fake: FakeKubernetes;
let studio: FakeStudio | null = null;
let work: string;
const runners: RunningRunner[] = [];
const savedKubeconfig = process.env.KUBECONFIG;

beforeEach(async () => {
  fake = await startFakeKubernetes();
  // Found the standard way (KubeConfig.loadFromDefault), as in a deployment outside the cluster.
  process.env.KUBECONFIG = fake.kubeconfigPath;
  work = fs.mkdtempSync(path.join(os.tmpdir(), "k8s-runner-"));
});
afterEach(async () => {
  for (const r of runners.splice(0)) await r.stop();
  await studio?.close();
  studio = null;
  await fake.close();
  if (savedKubeconfig === undefined) delete process.env.KUBECONFIG;
  else process.env.KUBECONFIG = savedKubeconfig;
  fs.rmSync(work, { recursive: true, force: true });
});

async function runner(url: string): Promise<RunningRunner> {
  const r = await startRunner({
    url,
    token: "rst_runner_test",
    name: "rubric-runner-0",
    backend: "kubernetes",
    workDir: path.join(work, `runner-${runners.length}`),
    maxJobs: 1,
    dockerImage: "unused",
    kubernetes: { namespace: "jobs", image: "pb-reproducer:test", runtimeClassName: null, gpus: 0 },
    event: () => undefined,
  });
  runners.push(r);
  return r;
}

describe("the runner with --backend kubernetes", () => {
  it("runs the claimed job as a pod and gives the studio its log, outputs and completion", async () => {
    studio = await fakeStudio('echo "hello $HF_TOKEN"; echo 7 > result.txt\n');
    const r = await runner(studio.url);
    expect(r.backend).toBe("kubernetes");
    const pod = await fake.podOf(objectNames(studio.claimed).job);
    expect(fake.networkPolicies.get(objectNames(studio.claimed).networkPolicy)!.spec!.egress).toHaveLength(2);
    fake.startPod(pod.pod.metadata!.name!);
    const [done] = await studio.until(() => studio!.completions.length > 0 && studio!.completions);
    expect(done).toMatchObject({ status: "succeeded", exitCode: 0, outputsUploaded: true });
    expect(done.metadata!.backend).toBe("kubernetes");
    expect(logText(studio)).toContain("hello ***");
    const files = await outputFiles(studio.outputs!);
    expect(files.get("result.txt")).toBe("7\n");
    expect(files.get("reproduce.log")).toContain("hello ***");
    await fake.until(() => fake.jobs.size === 0 && fake.secrets.size === 0 && fake.networkPolicies.size === 0);
  });

  it("a runner stopped (SIGTERM) leaves the pod running and the job unreleased; started again it re-adopts and completes it", async () => {
    studio = await fakeStudio(
      'echo before; while [ ! -e "$HOME/../release" ]; do sleep 0.1; done; echo after; echo done > result.txt\n',
    );
    const first = await runner(studio.url);
    const pod = await fake.podOf(objectNames(studio.claimed).job);
    const name = pod.pod.metadata!.name!;
    fake.startPod(name);
    await studio.until(() => logText(studio!).includes("before"));
    await first.stop();
    runners.splice(runners.indexOf(first), 1);
    expect(studio.calls.some((c) => c.endsWith("/release"))).toBe(false);
    expect(studio.completions).toEqual([]);
    expect(fake.pods.has(name)).toBe(true);

    await runner(studio.url);
    // The new runner follows the pod's log again; then the run goes on to its end.
    await fake.until(() => fake.requests.filter((q) => q.endsWith(`/pods/${name}/log`)).length === 2);
    fs.writeFileSync(fake.volumePath(name, "tmp", "release"), "");
    const [done] = await studio.until(() => studio!.completions.length > 0 && studio!.completions);
    expect(done).toMatchObject({ status: "succeeded", exitCode: 0, outputsUploaded: true });
    expect(logText(studio)).toContain("after");
    expect((await outputFiles(studio.outputs!)).get("result.txt")).toBe("done\n");
    expect(fake.requests.filter((q) => q === "POST /apis/batch/v1/namespaces/jobs/jobs")).toHaveLength(1);
  });

  it("a restarted runner deletes the pod of a job whose lease the studio no longer renews", async () => {
    studio = await fakeStudio("exec sleep 600\n");
    const first = await runner(studio.url);
    const pod = await fake.podOf(objectNames(studio.claimed).job);
    fake.startPod(pod.pod.metadata!.name!);
    await fake.until(() => fs.existsSync(fake.volumePath(pod.pod.metadata!.name!, "control", "go")));
    await first.stop();
    runners.splice(runners.indexOf(first), 1);
    expect(fake.jobs.size).toBe(1);
    // Away past its lease: the studio requeued the job.
    studio.stale = true;
    await runner(studio.url);
    await fake.until(() => fake.jobs.size === 0 && fake.secrets.size === 0 && fake.networkPolicies.size === 0);
    expect(fake.pods.size).toBe(0);
    expect(studio.completions).toEqual([]);
  });
});
