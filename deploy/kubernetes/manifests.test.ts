/**
 * The Kubernetes manifests: every file kustomization.yaml lists parses and validates against the
 * Kubernetes schemas (kubernetes-models), and the pieces fit together: Service → studio pods, the
 * runner controller → the studio's Service and the namespace its Role is in, its Role no wider than
 * what runner/backends/kubernetes.ts does, secrets from Secrets.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments, parse as parseYaml } from "yaml";
import { Deployment, StatefulSet } from "kubernetes-models/apps/v1";
import { Namespace, Service, ServiceAccount } from "kubernetes-models/v1";
import { Role, RoleBinding } from "kubernetes-models/rbac.authorization.k8s.io/v1";
import { RuntimeClass } from "kubernetes-models/node.k8s.io/v1";

const DIR = import.meta.dirname;
const ROOT = path.resolve(DIR, "..", "..");

// What each apiVersion/kind is checked against; a manifest of any other kind fails the test.
const MODELS = {
  "apps/v1/Deployment": Deployment,
  "apps/v1/StatefulSet": StatefulSet,
  "v1/Service": Service,
  "v1/ServiceAccount": ServiceAccount,
  "v1/Namespace": Namespace,
  "rbac.authorization.k8s.io/v1/Role": Role,
  "rbac.authorization.k8s.io/v1/RoleBinding": RoleBinding,
  "node.k8s.io/v1/RuntimeClass": RuntimeClass,
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
const runner = find<StatefulSet>("StatefulSet", "rubric-runner");
const role = find<Role>("Role", "rubric-runner");
const binding = find<RoleBinding>("RoleBinding", "rubric-runner");
const container = (d: Deployment | StatefulSet) => d.spec!.template.spec!.containers[0];
const envOf = (d: Deployment | StatefulSet, name: string) => container(d).env?.find((e) => e.name === name);
const argOf = (d: Deployment | StatefulSet, flag: string) => {
  const args = container(d).args!;
  return args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined;
};

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
    const badRole = structuredClone(manifests.find((m) => m.kind === "Role")!) as Manifest & { rules: unknown };
    badRole.rules = [{ resources: ["pods"] }];
    expect(() => modelOf(badRole).validate()).toThrow();
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

  it("runs the runner as a controller with its token from a Secret, and no database or studio secrets", () => {
    const c = container(runner);
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
    expect(argOf(runner, "--backend")).toBe("kubernetes");
    // Its name is the pod's: a StatefulSet's, the same after a restart, so it finds its job pods again.
    expect(argOf(runner, "--name")).toBe("$(POD_NAME)");
    expect(envOf(runner, "POD_NAME")?.valueFrom?.fieldRef?.fieldPath).toBe("metadata.name");
    expect(runner.spec!.replicas).toBeGreaterThanOrEqual(1);
    expect(runner.spec!.replicas).toBeLessThanOrEqual(2);
    // It runs no job itself: no GPU.
    expect(c.resources?.limits ?? {}).not.toHaveProperty("nvidia.com/gpu");
    expect(runner.spec!.template.spec!.serviceAccountName).toBe("rubric-runner");
  });

  it("points the runner at the studio's Service", () => {
    const url = new URL(argOf(runner, "--url")!);
    expect(url.hostname).toBe(studioService.metadata!.name);
    expect(Number(url.port)).toBe(studioService.spec!.ports![0].port);
  });

  it("lets the controller act only on Jobs, pods, their logs and exec, NetworkPolicies and Secrets, in the jobs' namespace", () => {
    const namespace = argOf(runner, "--k8s-namespace");
    expect(namespace).toBe("rubric-jobs");
    expect(role.metadata!.namespace).toBe(namespace);
    expect(binding.metadata!.namespace).toBe(namespace);
    expect(find<Namespace>("Namespace", namespace!).metadata!.labels).toMatchObject({
      "pod-security.kubernetes.io/enforce": "restricted",
    });
    expect(binding.roleRef).toEqual({ apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "rubric-runner" });
    expect(binding.subjects).toEqual([expect.objectContaining({ kind: "ServiceAccount", name: "rubric-runner" })]);
    find<ServiceAccount>("ServiceAccount", "rubric-runner");
    const granted = (role.rules ?? []).flatMap((r) =>
      (r.apiGroups ?? []).flatMap((g) =>
        (r.resources ?? []).map((res) => `${g}/${res}: ${[...(r.verbs ?? [])].sort().join(",")}`),
      ),
    );
    expect(granted.sort()).toEqual(
      [
        "batch/jobs: create,delete,get,list,watch",
        "/pods: get,list,watch",
        "/pods/log: get",
        "/pods/exec: create,get",
        "networking.k8s.io/networkpolicies: create,delete",
        "/secrets: create,delete,get",
      ].sort(),
    );
    expect(JSON.stringify(role.rules)).not.toContain("*");
  });

  it("offers gVisor as a RuntimeClass the controller can name", () => {
    expect(find<RuntimeClass>("RuntimeClass", "gvisor").handler).toBe("runsc");
  });
});
