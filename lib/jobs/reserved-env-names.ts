/**
 * Environment variable names a paper's secret may not take: names that change how programs load or
 * run, and the names the job's environment sets itself. A secret becomes an environment variable of
 * reproduce.sh and, through the backends, of the processes that start it (bwrap, docker's client,
 * bash): a secret named LD_PRELOAD or PATH would choose what those run. Refused when a secret is set
 * (`secretNameSchema`), dropped when one stored before this rule is handed to a job
 * (`server/papers/paper-secrets.ts`), and exported for the runner to check what it is handed.
 *
 * Each entry says why, and the refusal quotes it. Names are compared upper-cased: secret names are
 * upper case already, and a runner reusing the rule should not be fooled by `ld_preload`.
 */
interface ReservedRule {
  /** Exact names, or prefixes when they end with `*`. */
  names: readonly string[];
  why: string;
}

export const RESERVED_ENV_RULES: readonly ReservedRule[] = [
  {
    names: ["PATH", "HOME", "TMPDIR", "TMP", "TEMP", "LANG", "LANGUAGE", "LC_*", "CUDA_VISIBLE_DEVICES", "RUBRIC_*"],
    why: "the runner sets it for every job (which programs run, where the home and temporary files are, the locale, the GPUs a job was given)",
  },
  {
    names: [
      "CUDA_DEVICE_ORDER",
      "NVIDIA_VISIBLE_DEVICES",
      "NVIDIA_DRIVER_CAPABILITIES",
      "ROCR_VISIBLE_DEVICES",
      "HIP_VISIBLE_DEVICES",
      "GPU_DEVICE_ORDINAL",
    ],
    why: "it changes which GPUs a job sees, which is the runner's split",
  },
  {
    names: [
      "LD_*",
      "DYLD_*",
      "GLIBC_TUNABLES",
      "MALLOC_*",
      "GCONV_PATH",
      "LOCPATH",
      "NLSPATH",
      "HOSTALIASES",
      "RESOLV_HOST_CONF",
    ],
    why: "the dynamic loader or the C library reads it: it loads libraries or files of its choosing into every program",
  },
  {
    names: [
      "BASH_*",
      "ENV",
      "SHELLOPTS",
      "BASHOPTS",
      "PS4",
      "PS1",
      "PROMPT_COMMAND",
      "IFS",
      "CDPATH",
      "GLOBIGNORE",
      "ZDOTDIR",
      "SHELL",
    ],
    why: "the shell runs or reinterprets commands by it (startup files, exported functions, traced prompts, word splitting)",
  },
  {
    names: ["PYTHON*"],
    why: "Python reads it at start-up (PYTHONSTARTUP, PYTHONPATH, PYTHONHOME, PYTHONUSERBASE, PYTHONBREAKPOINT… run or import code of its choosing)",
  },
  {
    names: ["NODE_OPTIONS", "NODE_PATH", "NODE_REPL_EXTERNAL_MODULE", "NPM_CONFIG_*"],
    why: "Node.js or npm reads it at start-up (preloaded modules, the shell npm scripts run in)",
  },
  {
    names: [
      "PERL5OPT",
      "PERL5LIB",
      "PERLLIB",
      "PERL5DB",
      "RUBYOPT",
      "RUBYLIB",
      "LUA_INIT*",
      "LUA_PATH*",
      "LUA_CPATH*",
      "R_PROFILE*",
      "R_ENVIRON*",
      "R_LIBS*",
    ],
    why: "the interpreter (Perl, Ruby, Lua, R) loads or runs code named by it at start-up",
  },
  {
    names: ["JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH"],
    why: "every JVM reads it at start-up (agents and classes of its choosing)",
  },
  {
    names: ["GIT_*"],
    why: "git runs programs named by it (GIT_SSH_COMMAND, GIT_ASKPASS, GIT_EXEC_PATH, GIT_CONFIG_*, GIT_EXTERNAL_DIFF…)",
  },
  {
    names: ["EDITOR", "VISUAL", "PAGER", "BROWSER", "SSH_ASKPASS", "SUDO_ASKPASS", "XDG_*"],
    why: "programs run the command it names, or read their configuration (and its hooks) from where it points",
  },
  {
    names: ["OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES"],
    why: "OpenSSL loads engines and providers (shared libraries) named by it",
  },
  {
    names: ["DOCKER_*"],
    why: "the docker backend's client reads it (which daemon it talks to, where its configuration and credential helpers are)",
  },
];

function matches(pattern: string, name: string): boolean {
  return pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

/** Why `name` may not be a job's secret, or null when it may. */
export function reservedEnvNameReason(name: string): string | null {
  const upper = name.toUpperCase();
  const rule = RESERVED_ENV_RULES.find((r) => r.names.some((pattern) => matches(pattern, upper)));
  return rule ? rule.why : null;
}

/** The refusal a reserved name gets, naming the rule. */
export function reservedEnvNameMessage(name: string): string | null {
  const why = reservedEnvNameReason(name);
  return why && `is reserved: ${name} cannot be a secret because ${why}`;
}
