import { describe, expect, it } from "vitest";
import { parseRunnerOptions, TOKEN_ON_COMMAND_LINE_WARNING, UsageError } from "./cli-options";

const URL_ARGS = ["--url", "http://127.0.0.1:3000", "--name", "gpu-01"];

describe("the runner's command line", () => {
  it("reads the token from RUNNER_TOKEN, with nothing to warn about", () => {
    const options = parseRunnerOptions(URL_ARGS, { RUNNER_TOKEN: "rst_runner_from-env" });
    expect(options.token).toBe("rst_runner_from-env");
    expect(options.warnings).toEqual([]);
  });

  it("still takes --token, but warns that process listings show it, without quoting it", () => {
    const options = parseRunnerOptions([...URL_ARGS, "--token", "rst_runner_on-argv"], {});
    expect(options.token).toBe("rst_runner_on-argv");
    expect(options.warnings).toEqual([TOKEN_ON_COMMAND_LINE_WARNING]);
    expect(options.warnings.join("\n")).toMatch(/process listings[\s\S]*RUNNER_TOKEN/);
    expect(options.warnings.join("\n")).not.toContain("rst_runner_on-argv");
  });

  it("refuses to start without a token, naming RUNNER_TOKEN", () => {
    expect(() => parseRunnerOptions(URL_ARGS, {})).toThrow(UsageError);
    expect(() => parseRunnerOptions(URL_ARGS, {})).toThrow(/RUNNER_TOKEN is required/);
  });

  it("reads the kubernetes backend's options from flags, or from RUNNER_K8S_*", () => {
    const flags = parseRunnerOptions(
      [
        ...URL_ARGS,
        "--backend",
        "kubernetes",
        "--k8s-namespace",
        "rubric-jobs",
        "--k8s-image",
        "pb:1",
        "--k8s-runtime-class",
        "gvisor",
        "--k8s-gpus",
        "8",
      ],
      { RUNNER_TOKEN: "t" },
    );
    expect(flags.backend).toBe("kubernetes");
    expect(flags.kubernetes).toEqual({ namespace: "rubric-jobs", image: "pb:1", runtimeClassName: "gvisor", gpus: 8 });
    const env = parseRunnerOptions([...URL_ARGS, "--backend", "kubernetes"], {
      RUNNER_TOKEN: "t",
      RUNNER_K8S_NAMESPACE: "jobs",
      RUNNER_K8S_IMAGE: "pb:2",
      RUNNER_K8S_RUNTIME_CLASS: "",
      RUNNER_K8S_GPUS: "2",
    });
    expect(env.kubernetes).toEqual({ namespace: "jobs", image: "pb:2", runtimeClassName: null, gpus: 2 });
    expect(() => parseRunnerOptions([...URL_ARGS, "--k8s-gpus", "-1"], { RUNNER_TOKEN: "t" })).toThrow(/--k8s-gpus/);
  });
});
