/**
 * The Kubernetes manifests: every file kustomization.yaml lists parses and validates against the
 * Kubernetes and KEDA schemas (kubernetes-models), the pieces fit together (Service → studio pods,
 * runner → Service, ScaledObject → runner Deployment and its TriggerAuthentication), secrets come
 * from Secrets, and KEDA's query runs on a real, migrated database and counts what it should.
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments, parse as parseYaml } from "yaml";
import { Deployment } from "kubernetes-models/apps/v1";
import { Service } from "kubernetes-models/v1";
import { ScaledObject, TriggerAuthentication } from "@kubernetes-models/keda/keda.sh/v1alpha1";
import type { DbHandle } from "@/db/client";
import { createPaper } from "@/db/queries/papers";
import { jobs } from "@/db/schema";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";

const DIR = import.meta.dirname;
const ROOT = path.resolve(DIR, "..", "..");

// What each apiVersion/kind is checked against; a manifest of any other kind fails the test.
const MODELS = {
  "apps/v1/Deployment": Deployment,
  "v1/Service": Service,
  "keda.sh/v1alpha1/ScaledObject": ScaledObject,
  "keda.sh/v1alpha1/TriggerAuthentication": TriggerAuthentication,
} as const;

type Manifest = { file: string; apiVersion: string; kind: string; metadata: { name: string }; [key: string]: unknown };

function readManifests(): Manifest[] {
  const kustomization = parseYaml(fs.readFileSync(path.join(DIR, "kustomization.yaml"), "utf8")) as {
    resources: string[];
  };
  return kustomization.resources.flatMap((file) => {
    const docs = parseAllDocuments(fs.readFileSync(path.join(DIR, file), "utf8"));
    return docs.map((doc) => {
      expect(doc.errors, file).toEqual([]);
      return { ...(doc.toJS() as Omit<Manifest, "file">), file } as Manifest;
    });
  });
}

function modelOf(m: Manifest) {
  const Model = MODELS[`${m.apiVersion}/${m.kind}` as keyof typeof MODELS];
  if (!Model) throw new Error(`${m.file}: no schema for ${m.apiVersion} ${m.kind}`);
  const { file: _file, ...json } = m;
  return new Model(json as never);
}

const manifests = readManifests();
const find = <T>(kind: string, name: string): T => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the manifests`);
  return modelOf(found) as T;
};
const studio = find<Deployment>("Deployment", "rubric-studio");
const studioService = find<Service>("Service", "rubric-studio");
const runner = find<Deployment>("Deployment", "rubric-runner");
const scaledObject = find<ScaledObject>("ScaledObject", "rubric-runner");
const trigger = scaledObject.spec!.triggers[0];
const container = (d: Deployment) => d.spec!.template.spec!.containers[0];
const envOf = (d: Deployment, name: string) => container(d).env?.find((e) => e.name === name);

describe("the Kubernetes manifests", () => {
  it("lists every manifest of the folder in kustomization.yaml", () => {
    const files = fs.readdirSync(DIR).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml");
    const listed = (parseYaml(fs.readFileSync(path.join(DIR, "kustomization.yaml"), "utf8")) as { resources: string[] })
      .resources;
    expect([...listed].sort()).toEqual(files.sort());
  });

  it("validates every document against its Kubernetes or KEDA schema", () => {
    expect(manifests.length).toBeGreaterThanOrEqual(5);
    for (const m of manifests)
      expect(() => modelOf(m).validate(), `${m.file}: ${m.kind} ${m.metadata.name}`).not.toThrow();
  });

  it("is checked by a validation that does refuse a broken manifest", () => {
    const broken = structuredClone(manifests.find((m) => m.kind === "Deployment")!) as Manifest & {
      spec: { replicas: unknown };
    };
    broken.spec.replicas = "two";
    expect(() => modelOf(broken).validate()).toThrow();
    const badTrigger = structuredClone(manifests.find((m) => m.kind === "ScaledObject")!) as Manifest & {
      spec: { triggers: unknown };
    };
    badTrigger.spec.triggers = [{ metadata: {} }];
    expect(() => modelOf(badTrigger).validate()).toThrow();
  });

  it("gives the studio its database and AUTH_SECRET from a Secret, and readiness and liveness probes on paths it serves", () => {
    for (const name of ["DATABASE_URL", "AUTH_SECRET"]) {
      expect(envOf(studio, name)?.valueFrom?.secretKeyRef, name).toMatchObject({ name: "rubric-studio", key: name });
      expect(envOf(studio, name)?.value, name).toBeUndefined();
    }
    expect(container(studio).envFrom?.map((e) => e.secretRef?.name)).toContain("rubric-studio-s3");
    // Ready while the database answers (/api/health); alive while the server answers at all
    // (Auth.js's catch-all route serves /api/auth/csrf without the database), so an outage restarts nothing.
    expect(container(studio).readinessProbe!.httpGet!.path).toBe("/api/health");
    expect(fs.existsSync(path.join(ROOT, "app", "api", "health", "route.ts"))).toBe(true);
    expect(container(studio).livenessProbe!.httpGet!.path).toBe("/api/auth/csrf");
    expect(fs.existsSync(path.join(ROOT, "app", "api", "auth", "[...nextauth]", "route.ts"))).toBe(true);
    // The server listens beyond loopback, on the port the Service sends to.
    expect(container(studio).command).toEqual(expect.arrayContaining(["-H", "0.0.0.0", "-p", "3000"]));
    expect(container(studio).ports?.[0]).toMatchObject({ name: "http", containerPort: 3000 });
  });

  it("routes the studio Service to the studio pods", () => {
    expect(studioService.spec!.selector).toEqual(studio.spec!.template.metadata!.labels);
    expect(studio.spec!.selector.matchLabels).toEqual(studio.spec!.template.metadata!.labels);
    expect(studioService.spec!.ports?.[0]).toMatchObject({ port: 3000, targetPort: "http" });
  });

  it("runs a runner on one GPU with its token from a Secret, and no database or studio secrets", () => {
    const c = container(runner);
    expect(c.resources?.limits?.["nvidia.com/gpu"]).toBe(1);
    expect(envOf(runner, "RUNNER_TOKEN")?.valueFrom?.secretKeyRef).toMatchObject({
      name: "rubric-runner",
      key: "token",
    });
    expect(envOf(runner, "RUNNER_TOKEN")?.value).toBeUndefined();
    const envNames = (c.env ?? []).map((e) => e.name);
    for (const secret of ["DATABASE_URL", "AUTH_SECRET", "S3_SECRET_ACCESS_KEY"])
      expect(envNames).not.toContain(secret);
    expect(c.envFrom ?? []).toEqual([]);
    // The token is never on the command line, where every process of the pod could read it.
    expect([...(c.command ?? []), ...(c.args ?? [])].join(" ")).not.toMatch(/--token/);
    expect(c.command).toEqual(["npm", "run", "runner", "--"]);
    expect(c.args).toEqual(expect.arrayContaining(["--backend", "local"]));
    const pod = runner.spec!.template.spec!;
    expect(pod.tolerations).toContainEqual(expect.objectContaining({ key: "nvidia.com/gpu", operator: "Exists" }));
    expect(pod.automountServiceAccountToken).toBe(false);
    // The job's stop (SIGTERM, 10 s grace, SIGKILL) and the last log lines fit in the pod's grace.
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(30);
  });

  it("points the runner at the studio's Service", () => {
    const args = container(runner).args!;
    const url = new URL(args[args.indexOf("--url") + 1]);
    expect(url.hostname).toBe(studioService.metadata!.name);
    expect(Number(url.port)).toBe(studioService.spec!.ports![0].port);
  });

  it("scales the runner Deployment with KEDA's PostgreSQL scaler on reproduce jobs, from zero", () => {
    expect(scaledObject.spec!.scaleTargetRef.name).toBe(runner.metadata!.name);
    expect(scaledObject.spec!.minReplicaCount).toBe(0);
    expect(scaledObject.spec!.maxReplicaCount).toBeGreaterThan(0);
    expect(trigger.type).toBe("postgresql");
    const query = trigger.metadata.query;
    expect(query).toMatch(/\bFROM jobs\b/);
    expect(query).toMatch(/kind = 'reproduce'/);
    expect(query).toMatch(/'queued'/);
    expect(trigger.metadata.targetQueryValue).toBe("1");
    const auth = find<TriggerAuthentication>("TriggerAuthentication", trigger.authenticationRef!.name);
    expect(auth.spec!.secretTargetRef).toContainEqual(
      expect.objectContaining({ parameter: "connection", name: "rubric-keda-postgres" }),
    );
  });
});

describe.each(testDatabaseKinds())("KEDA's query on a migrated database (%s)", (kind) => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    await createPaper(
      handle.db,
      { id: "keda-paper", title: "KEDA", paperMarkdown: "", addendum: "", judgeAddendum: "", blacklist: [] },
      null,
    );
  });
  afterAll(async () => {
    await handle?.close();
  });

  const count = async () => {
    const { rows } = await handle.db.execute<{ count: unknown }>(sql.raw(trigger.metadata.query));
    expect(rows).toHaveLength(1);
    return Number(Object.values(rows[0])[0]);
  };

  it("counts the reproduce jobs a one-GPU runner pod can take or is running, and nothing else", async () => {
    expect(await count()).toBe(0);
    const job = (over: Partial<typeof jobs.$inferInsert>) => ({
      kind: "reproduce" as const,
      paperId: "keda-paper",
      timeoutS: 60,
      maxAttempts: 3,
      ...over,
    });
    await handle.db.insert(jobs).values([
      job({ status: "queued", gpusRequired: 1 }),
      job({ status: "queued", gpusRequired: 0 }),
      job({ status: "running", gpusRequired: 1 }),
      // Not for these pods: another kind, finished, or more GPUs than a pod has.
      job({ kind: "judge", status: "queued" }),
      job({ status: "succeeded", gpusRequired: 1 }),
      job({ status: "failed", gpusRequired: 1 }),
      job({ status: "queued", gpusRequired: 2 }),
    ]);
    expect(await count()).toBe(3);
  });
});
