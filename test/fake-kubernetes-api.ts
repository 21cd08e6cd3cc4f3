/**
 * A local stand-in for the Kubernetes API server and one kubelet, speaking only what
 * runner/backends/kubernetes.ts uses, so the backend is tested through the real @kubernetes/client-node
 * over HTTP (as the judge is tested against test/openai-test-server.ts):
 *
 * - batch/v1 Jobs: create (which makes the Job's one pod, Pending), list, delete (its pods go with it);
 * - v1 Pods: list and watch (newline-delimited ADDED/MODIFIED/DELETED events), logs (follow,
 *   sinceTime), and exec over a websocket in the channel protocol (v5.channel.k8s.io, or v4): the first
 *   byte of each binary frame is the channel: 0 stdin, 1 stdout, 2 stderr, 3 the status JSON, 255 a
 *   stream's close (v5: the client's end of stdin);
 * - v1 Secrets and networking.k8s.io/v1 NetworkPolicies: create, read, delete.
 *
 * The test drives the pods: `startPod` makes one Running, and, unless told not to, runs its
 * `reproduce` container's command for real, on this machine, with each volume a directory of its
 * own (the command's mount paths rewritten to them) and its env resolved from the Secrets; the
 * container's output is its log and its exit its `terminated` state. `failPod` ends a pod as the
 * kubelet does past activeDeadlineSeconds. Exec runs the command the same way in the named container's
 * mounts. Every change is an event the test can wait on (`until`): no test here waits on time.
 * DEBUG_FAKE_K8S=1 prints each request, exec, log line and container end on stderr.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { WebSocketServer, type WebSocket } from "ws";
import type { V1Container, V1Job, V1NetworkPolicy, V1Pod, V1Secret } from "@kubernetes/client-node";

interface LogChunk {
  at: Date;
  text: Buffer;
}

export interface FakePod {
  pod: V1Pod;
  /** Each volume's directory on this machine. */
  volumes: Map<string, string>;
  logs: Map<string, LogChunk[]>;
  processes: Set<ChildProcess>;
}

export interface ExecRecord {
  pod: string;
  container: string;
  command: string[];
  exitCode: number | null;
}

export interface FakeKubernetes {
  url: string;
  /** A kubeconfig file that points at this server (what KUBECONFIG would name). */
  kubeconfigPath: string;
  jobs: Map<string, V1Job>;
  pods: Map<string, FakePod>;
  secrets: Map<string, V1Secret>;
  networkPolicies: Map<string, V1NetworkPolicy>;
  /** Every request, `METHOD /path` (the query left out), in order. */
  requests: string[];
  execs: ExecRecord[];
  /** Resolves once `check()` holds, checked now and after every change. */
  until<T>(check: () => T | null | undefined | false): Promise<T>;
  /** The one pod of the Job named `jobName`, once it exists. */
  podOf(jobName: string): Promise<FakePod>;
  /** Pending → Running; runs the `reproduce` container's command unless `run` is false. */
  startPod(name: string, opts?: { run?: boolean }): void;
  /** The pod's containers wait with this reason (ImagePullBackOff…), as the kubelet reports one it cannot start. */
  podWaiting(name: string, reason: string, message: string): void;
  /** The pod ends Failed with this reason (DeadlineExceeded: past activeDeadlineSeconds), its processes killed. */
  failPod(name: string, reason: string): void;
  /** The pod is deleted (its processes killed), as `kubectl delete pod` would. */
  deletePod(name: string): void;
  /** A line in a container's log, as if it wrote it. */
  appendLog(name: string, container: string, text: string): void;
  /** A path of the pod's volume on this machine. */
  volumePath(name: string, volume: string, ...rest: string[]): string;
  close(): Promise<void>;
}

/** A container's processes are its process group (each is spawned detached): all of them go, as with a container. */
function killGroup(proc: ChildProcess): void {
  try {
    process.kill(-proc.pid!, "SIGKILL");
  } catch {
    // Already gone.
  }
}

export async function startFakeKubernetes(): Promise<FakeKubernetes> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "fake-k8s-"));
  const waiters = new Set<() => void>();
  const podWatchers = new Set<{ selector: Record<string, string>; send(type: string, pod: V1Pod): void }>();
  const logFollowers = new Set<() => void>();
  const changed = () => {
    for (const w of [...waiters]) w();
    for (const f of [...logFollowers]) f();
  };

  const fake: FakeKubernetes = {
    url: "",
    kubeconfigPath: path.join(root, "kubeconfig"),
    jobs: new Map(),
    pods: new Map(),
    secrets: new Map(),
    networkPolicies: new Map(),
    requests: [],
    execs: [],
    until<T>(check: () => T | null | undefined | false): Promise<T> {
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
    podOf(jobName) {
      return fake.until(() => [...fake.pods.values()].find((p) => p.pod.metadata?.labels?.["job-name"] === jobName));
    },
    startPod(name, opts = {}) {
      const p = mustPod(name);
      const now = new Date();
      p.pod.status = {
        phase: "Running",
        startTime: now,
        containerStatuses: containers(p).map((c) => ({
          name: c.name,
          image: c.image ?? "",
          imageID: "",
          ready: true,
          restartCount: 0,
          state: { running: { startedAt: now } },
        })),
      };
      podChanged(p);
      if (opts.run !== false) runContainer(p, containers(p)[0]);
    },
    podWaiting(name, reason, message) {
      const p = mustPod(name);
      p.pod.status = {
        phase: "Pending",
        containerStatuses: containers(p).map((c) => ({
          name: c.name,
          image: c.image ?? "",
          imageID: "",
          ready: false,
          restartCount: 0,
          state: { waiting: { reason, message } },
        })),
      };
      podChanged(p);
    },
    failPod(name, reason) {
      const p = mustPod(name);
      for (const proc of p.processes) killGroup(proc);
      p.pod.status = {
        ...p.pod.status,
        phase: "Failed",
        reason,
        containerStatuses: p.pod.status?.containerStatuses?.map((s) => ({
          ...s,
          state: { terminated: { exitCode: 137, reason: "Error" } },
        })),
      };
      podChanged(p);
    },
    deletePod: (name) => deletePod(name),
    appendLog(name, container, text) {
      const p = mustPod(name);
      if (process.env.DEBUG_FAKE_K8S) console.error(`fake k8s log ${container}: ${text}`);
      p.logs.get(container)!.push({ at: new Date(), text: Buffer.from(text) });
      changed();
    },
    volumePath(name, volume, ...rest) {
      return path.join(mustPod(name).volumes.get(volume)!, ...rest);
    },
    close: async () => undefined,
  };

  function mustPod(name: string): FakePod {
    const p = fake.pods.get(name);
    if (!p) throw new Error(`no pod ${name}`);
    return p;
  }
  const containers = (p: FakePod): V1Container[] => p.pod.spec!.containers;
  const matches = (labels: Record<string, string> | undefined, selector: Record<string, string>) =>
    Object.entries(selector).every(([k, v]) => labels?.[k] === v);

  function podChanged(p: FakePod, type = "MODIFIED"): void {
    for (const w of podWatchers) if (matches(p.pod.metadata?.labels, w.selector)) w.send(type, p.pod);
    changed();
  }

  function setContainerTerminated(p: FakePod, container: string, exitCode: number): void {
    const statuses = p.pod.status?.containerStatuses ?? [];
    if (process.env.DEBUG_FAKE_K8S) console.error(`fake k8s: ${container} terminated ${exitCode}`);
    for (const s of statuses)
      if (s.name === container) s.state = { terminated: { exitCode, reason: exitCode === 0 ? "Completed" : "Error" } };
    if (statuses.every((s) => s.state?.terminated)) {
      p.pod.status!.phase = statuses.every((s) => s.state?.terminated?.exitCode === 0) ? "Succeeded" : "Failed";
    }
    podChanged(p);
  }

  /** The command with each of the container's mount paths turned into its volume's directory here. */
  function rewriter(p: FakePod, container: V1Container): (text: string) => string {
    const mounts = [...(container.volumeMounts ?? [])].sort((a, b) => b.mountPath.length - a.mountPath.length);
    const byPath = new Map(mounts.map((m) => [m.mountPath, p.volumes.get(m.name)!]));
    const pattern = new RegExp(
      `(?<![\\w.-])(${mounts.map((m) => m.mountPath.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|")})(?=[/\\s'";)]|$)`,
      "g",
    );
    return (text) => text.replace(pattern, (m) => byPath.get(m)!);
  }

  function containerEnv(p: FakePod, container: V1Container): Record<string, string | undefined> {
    const rewrite = rewriter(p, container);
    const env: Record<string, string | undefined> = { PATH: process.env.PATH };
    for (const e of container.env ?? []) {
      if (e.value !== undefined) env[e.name] = rewrite(e.value);
      const ref = e.valueFrom?.secretKeyRef;
      if (ref) {
        const secret = fake.secrets.get(ref.name!);
        const value = secret?.data?.[ref.key];
        if (value === undefined) throw new Error(`secret ${ref.name} has no key ${ref.key}`);
        env[e.name] = Buffer.from(value, "base64").toString("utf8");
      }
    }
    return env;
  }

  function spawnIn(p: FakePod, container: V1Container, command: string[]): ChildProcess {
    const rewrite = rewriter(p, container);
    const [file, ...args] = command.map(rewrite);
    const cwd = container.workingDir ? rewrite(container.workingDir) : root;
    const child = spawn(file, args, {
      cwd,
      env: containerEnv(p, container) as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    p.processes.add(child);
    child.once("close", () => {
      p.processes.delete(child);
      changed();
    });
    return child;
  }

  function runContainer(p: FakePod, container: V1Container): void {
    const child = spawnIn(p, container, [...(container.command ?? []), ...(container.args ?? [])]);
    child.stdin!.end();
    const keep = (d: Buffer) => fake.appendLog(p.pod.metadata!.name!, container.name, d.toString("utf8"));
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    child.once("close", (code) => {
      if (fake.pods.get(p.pod.metadata!.name!) === p && p.pod.status?.phase === "Running")
        setContainerTerminated(p, container.name, code ?? 137);
    });
  }

  function createPodFor(job: V1Job): void {
    const name = `${job.metadata!.name}-${randomBytes(3).toString("hex").slice(0, 5)}`;
    const template = job.spec!.template;
    const pod: V1Pod = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name,
        namespace: job.metadata!.namespace,
        labels: { ...template.metadata?.labels, "job-name": job.metadata!.name! },
      },
      spec: template.spec,
      status: { phase: "Pending" },
    };
    const volumes = new Map<string, string>();
    for (const v of template.spec!.volumes ?? []) {
      const dir = path.join(root, name, v.name);
      fs.mkdirSync(dir, { recursive: true });
      volumes.set(v.name, dir);
    }
    const p: FakePod = { pod, volumes, logs: new Map(), processes: new Set() };
    for (const c of template.spec!.containers) p.logs.set(c.name, []);
    fake.pods.set(name, p);
    podChanged(p, "ADDED");
  }

  function deletePod(name: string): void {
    const p = fake.pods.get(name);
    if (!p) return;
    for (const proc of p.processes) killGroup(proc);
    fake.pods.delete(name);
    podChanged(p, "DELETED");
  }

  const parseSelector = (text: string | null): Record<string, string> =>
    Object.fromEntries(
      (text ?? "")
        .split(",")
        .filter(Boolean)
        .map((kv) => kv.split("=") as [string, string]),
    );

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    fake.requests.push(`${req.method} ${url.pathname}`);
    changed();
    if (process.env.DEBUG_FAKE_K8S) {
      console.error(`fake k8s: ${req.method} ${req.url}`);
      res.once("finish", () => console.error(`fake k8s: answered ${res.statusCode} ${req.method} ${req.url}`));
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : null;
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
    const status = (code: number, reason: string, message: string) =>
      json(code, { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", reason, message, code });
    const ok = () => json(200, { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success" });
    const selector = parseSelector(url.searchParams.get("labelSelector"));
    let m: RegExpMatchArray | null;

    if ((m = url.pathname.match(/^\/apis\/batch\/v1\/namespaces\/([^/]+)\/jobs(?:\/([^/]+))?$/))) {
      const name = m[2];
      if (req.method === "POST") {
        const job = body as V1Job;
        if (fake.jobs.has(job.metadata!.name!)) return status(409, "AlreadyExists", "job exists");
        fake.jobs.set(job.metadata!.name!, job);
        createPodFor(job);
        return json(201, job);
      }
      if (req.method === "GET" && !name)
        return json(200, {
          apiVersion: "batch/v1",
          kind: "JobList",
          metadata: {},
          items: [...fake.jobs.values()].filter((j) => matches(j.metadata?.labels, selector)),
        });
      if (req.method === "DELETE" && name) {
        if (!fake.jobs.delete(name)) return status(404, "NotFound", `job ${name} not found`);
        for (const [podName, p] of fake.pods) if (p.pod.metadata?.labels?.["job-name"] === name) deletePod(podName);
        changed();
        return ok();
      }
    }

    if ((m = url.pathname.match(/^\/api\/v1\/namespaces\/([^/]+)\/pods$/)) && req.method === "GET") {
      const items = () =>
        [...fake.pods.values()].map((p) => p.pod).filter((p) => matches(p.metadata?.labels, selector));
      if (url.searchParams.get("watch") !== "true")
        return json(200, { apiVersion: "v1", kind: "PodList", metadata: {}, items: items() });
      res.writeHead(200, { "content-type": "application/json" }).flushHeaders();
      const watcher = {
        selector,
        send: (type: string, object: V1Pod) => res.write(`${JSON.stringify({ type, object })}\n`),
      };
      for (const pod of items()) watcher.send("ADDED", pod);
      podWatchers.add(watcher);
      res.once("close", () => podWatchers.delete(watcher));
      return;
    }

    if ((m = url.pathname.match(/^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/log$/)) && req.method === "GET") {
      const p = fake.pods.get(m[2]);
      const container = url.searchParams.get("container") ?? "";
      if (!p || !p.logs.has(container)) return status(404, "NotFound", "no such pod or container");
      const since = url.searchParams.get("sinceTime");
      let sent = 0;
      res.writeHead(200, { "content-type": "text/plain" }).flushHeaders();
      const pump = () => {
        const log = p.logs.get(container)!;
        for (; sent < log.length; sent++)
          if (!since || log[sent].at.getTime() >= new Date(since).getTime()) res.write(log[sent].text);
        const state = p.pod.status?.containerStatuses?.find((s) => s.name === container)?.state;
        if (url.searchParams.get("follow") !== "true" || state?.terminated || !fake.pods.has(m![2])) {
          logFollowers.delete(pump);
          res.end();
        }
      };
      logFollowers.add(pump);
      res.once("close", () => logFollowers.delete(pump));
      pump();
      return;
    }

    if ((m = url.pathname.match(/^\/api\/v1\/namespaces\/([^/]+)\/secrets(?:\/([^/]+))?$/))) {
      const name = m[2];
      if (req.method === "POST") {
        const secret = body as V1Secret;
        if (fake.secrets.has(secret.metadata!.name!)) return status(409, "AlreadyExists", "secret exists");
        const data: Record<string, string> = { ...secret.data };
        for (const [k, v] of Object.entries(secret.stringData ?? {})) data[k] = Buffer.from(v).toString("base64");
        const stored = { ...secret, stringData: undefined, data };
        fake.secrets.set(secret.metadata!.name!, stored);
        changed();
        return json(201, stored);
      }
      if (req.method === "GET" && name) {
        const secret = fake.secrets.get(name);
        return secret ? json(200, secret) : status(404, "NotFound", `secret ${name} not found`);
      }
      if (req.method === "DELETE" && name) {
        if (!fake.secrets.delete(name)) return status(404, "NotFound", `secret ${name} not found`);
        changed();
        return ok();
      }
    }

    if (
      (m = url.pathname.match(/^\/apis\/networking\.k8s\.io\/v1\/namespaces\/([^/]+)\/networkpolicies(?:\/([^/]+))?$/))
    ) {
      const name = m[2];
      if (req.method === "POST") {
        const policy = body as V1NetworkPolicy;
        if (fake.networkPolicies.has(policy.metadata!.name!)) return status(409, "AlreadyExists", "exists");
        fake.networkPolicies.set(policy.metadata!.name!, policy);
        changed();
        return json(201, policy);
      }
      if (req.method === "DELETE" && name) {
        if (!fake.networkPolicies.delete(name)) return status(404, "NotFound", `policy ${name} not found`);
        changed();
        return ok();
      }
    }
    status(404, "NotFound", `the fake does not serve ${req.method} ${url.pathname}`);
  });

  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) =>
      protocols.has("v5.channel.k8s.io")
        ? "v5.channel.k8s.io"
        : protocols.has("v4.channel.k8s.io")
          ? "v4.channel.k8s.io"
          : false,
  });
  server.on("upgrade", (req, socket, head) => {
    const url = new URL(req.url ?? "/", "http://fake");
    fake.requests.push(`WS ${url.pathname}`);
    const m = url.pathname.match(/^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/exec$/);
    const p = m ? fake.pods.get(m[2]) : undefined;
    const container = p?.pod.spec?.containers.find((c) => c.name === url.searchParams.get("container"));
    const running = p?.pod.status?.containerStatuses?.find((s) => s.name === container?.name)?.state?.running;
    if (!p || !container || !running) {
      socket.end("HTTP/1.1 404 Not Found\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => execIn(ws, p, container, url.searchParams.getAll("command")));
  });

  function execIn(ws: WebSocket, p: FakePod, container: V1Container, command: string[]): void {
    const record: ExecRecord = { pod: p.pod.metadata!.name!, container: container.name, command, exitCode: null };
    fake.execs.push(record);
    if (process.env.DEBUG_FAKE_K8S) console.error(`fake k8s exec: ${container.name} ${JSON.stringify(command)}`);
    const child = spawnIn(p, container, command);
    const frame = (channel: number, data: Buffer) => Buffer.concat([Buffer.from([channel]), data]);
    ws.on("message", (data: Buffer) => {
      if (data[0] === 0) child.stdin!.write(data.subarray(1));
      else if (data[0] === 255 && data[1] === 0) child.stdin!.end();
    });
    ws.on("close", () => child.stdin!.end());
    child.stdin!.on("error", () => undefined);
    child.stdout!.on("data", (d: Buffer) => ws.send(frame(1, d)));
    child.stderr!.on("data", (d: Buffer) => ws.send(frame(2, d)));
    child.once("close", (code) => {
      record.exitCode = code ?? 137;
      const result =
        code === 0
          ? { metadata: {}, status: "Success" }
          : {
              metadata: {},
              status: "Failure",
              message: `command terminated with non-zero exit code: ${code}`,
              reason: "NonZeroExitCode",
              details: { causes: [{ reason: "ExitCode", message: String(code ?? 137) }] },
            };
      ws.send(frame(3, Buffer.from(JSON.stringify(result))));
      ws.close();
      // The `files` container's script ends once told the outputs are read.
      if (
        container.name !== p.pod.spec!.containers[0].name &&
        fs.existsSync(path.join(p.volumes.get("control")!, "collected"))
      )
        setContainerTerminated(p, container.name, 0);
      changed();
    });
  }

  const sockets = new Set<import("node:net").Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fs.writeFileSync(
    fake.kubeconfigPath,
    JSON.stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "fake", cluster: { server: fake.url, "insecure-skip-tls-verify": true } }],
      users: [{ name: "fake", user: { token: "fake-token" } }],
      contexts: [{ name: "fake", context: { cluster: "fake", user: "fake", namespace: "jobs" } }],
      "current-context": "fake",
    }),
  );
  fake.close = async () => {
    for (const p of fake.pods.values()) for (const proc of p.processes) killGroup(proc);
    for (const ws of wss.clients) ws.terminate();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(root, { recursive: true, force: true });
  };
  return fake;
}
