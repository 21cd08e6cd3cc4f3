import { describe, expect, it } from "vitest";
import { reservedEnvNameMessage, reservedEnvNameReason } from "./reserved-env-names";

describe("reserved environment names", () => {
  it("refuses names that change how programs load or run, and the job's own", () => {
    const refused = [
      "PATH",
      "HOME",
      "TMPDIR",
      "LANG",
      "LC_ALL",
      "CUDA_VISIBLE_DEVICES",
      "NVIDIA_VISIBLE_DEVICES",
      "RUBRIC_JOB_MARKER",
      "LD_PRELOAD",
      "LD_LIBRARY_PATH",
      "LD_AUDIT",
      "GLIBC_TUNABLES",
      "GCONV_PATH",
      "LOCPATH",
      "BASH_ENV",
      "BASH_FUNC_X",
      "ENV",
      "SHELLOPTS",
      "BASHOPTS",
      "PS4",
      "IFS",
      "PROMPT_COMMAND",
      "PYTHONSTARTUP",
      "PYTHONPATH",
      "PYTHONHOME",
      "PYTHONUSERBASE",
      "PYTHONBREAKPOINT",
      "PYTHON_GIL",
      "NODE_OPTIONS",
      "NPM_CONFIG_SCRIPT_SHELL",
      "PERL5OPT",
      "RUBYOPT",
      "LUA_INIT",
      "R_PROFILE_USER",
      "JAVA_TOOL_OPTIONS",
      "_JAVA_OPTIONS",
      "GIT_SSH_COMMAND",
      "GIT_CONFIG_COUNT",
      "EDITOR",
      "XDG_CONFIG_HOME",
      "OPENSSL_CONF",
      "DOCKER_HOST",
      "DOCKER_CONFIG",
    ];
    for (const name of refused) expect(reservedEnvNameReason(name), name).not.toBeNull();
    // Whatever case a runner is handed.
    expect(reservedEnvNameReason("ld_preload")).not.toBeNull();
    expect(reservedEnvNameMessage("LD_PRELOAD")).toMatch(
      /^is reserved: LD_PRELOAD cannot be a secret because the dynamic loader/,
    );
  });

  it("accepts the secrets reproductions need", () => {
    for (const name of [
      "HF_TOKEN",
      "WANDB_API_KEY",
      "OPENAI_API_KEY",
      "GITHUB_TOKEN",
      "NODE_AUTH_TOKEN",
      "HTTP_PROXY",
      "KAGGLE_KEY",
      "PATHWAY_KEY",
      "HOMER",
    ]) {
      expect(reservedEnvNameReason(name), name).toBeNull();
      expect(reservedEnvNameMessage(name), name).toBeNull();
    }
  });
});
