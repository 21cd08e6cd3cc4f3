/** The PATH a job sees: the system's, nothing of the runner's own (no npm, no pyenv of the runner's user). */
export const JOB_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/**
 * The whole environment of a job's process: an allow-list, so nothing of the runner's (its token,
 * the studio's URL, its HOME) can leak in. The paper's secrets may add variables but never replace
 * the runner's own: PATH, HOME and TMPDIR (where programs are looked up and written) and
 * CUDA_VISIBLE_DEVICES (the GPU split is the runner's). This environment is the job's only: the
 * sandbox hands it to the job through bwrap's --setenv, never to a host-side process.
 */
export function jobEnvironment(opts: {
  home: string;
  tmp: string;
  gpuIndices: number[];
  secrets: Record<string, string>;
  extra?: Record<string, string>;
}): Record<string, string> {
  return {
    LANG: "C.UTF-8",
    ...opts.secrets,
    ...opts.extra,
    PATH: JOB_PATH,
    HOME: opts.home,
    TMPDIR: opts.tmp,
    // An empty value hides every GPU from CUDA: a job that asked for none gets none.
    CUDA_VISIBLE_DEVICES: opts.gpuIndices.join(","),
  };
}

/**
 * The job's command behind a shell that first closes every file descriptor above stderr: the
 * runner may itself have inherited some without close-on-exec (tsx's relay pipe does), and a job
 * must not get a channel into the runner's process tree.
 */
export function withInheritedFdsClosed(command: string[]): string[] {
  const script =
    'for fd in /proc/$$/fd/*; do fd=${fd##*/}; if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi; done; exec "$@"';
  return ["/bin/bash", "-c", script, "job", ...command];
}
