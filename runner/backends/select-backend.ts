import type { RunnerBackend } from "@/lib/runner/protocol";
import { dockerBackend } from "./docker";
import type { JobBackend } from "./job-backend";
import { kubernetesBackend, type KubernetesBackendOptions } from "./kubernetes";
import { localBackend } from "./local";
import { sandboxBackend } from "./sandbox";

export function selectBackend(
  name: RunnerBackend,
  opts: { dockerImage: string; kubernetes?: Omit<KubernetesBackendOptions, "kubeConfig"> },
): JobBackend {
  if (name === "sandbox") return sandboxBackend();
  if (name === "docker") return dockerBackend(opts.dockerImage);
  if (name === "kubernetes") {
    if (!opts.kubernetes) throw new Error("the kubernetes backend needs its options (namespace, image)");
    return kubernetesBackend(opts.kubernetes);
  }
  return localBackend();
}
