import type { RunnerBackend } from "@/lib/runner/protocol";
import { dockerBackend } from "./docker";
import type { JobBackend } from "./job-backend";
import { localBackend } from "./local";
import { sandboxBackend } from "./sandbox";

export function selectBackend(name: RunnerBackend, opts: { dockerImage: string }): JobBackend {
  if (name === "sandbox") return sandboxBackend();
  if (name === "docker") return dockerBackend(opts.dockerImage);
  return localBackend();
}
