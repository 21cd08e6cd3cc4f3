import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

/** Schedules a task for once the current request's answer has gone out. */
export type DeferToAnswer = (task: () => Promise<void>) => void;

const answering = new AsyncLocalStorage<DeferToAnswer>();

/**
 * Runs `handle` (a request's handler) so that `afterAnswer` inside it defers to `defer`. The route
 * wrapper passes Next.js's `after`; this module imports nothing of Next.js, so the CLI, which
 * announces the same changes, runs without it.
 */
export function answeringWith<T>(defer: DeferToAnswer, handle: () => Promise<T>): Promise<T> {
  return answering.run(defer, handle);
}

/**
 * Runs `task` once the current request's answer has been sent, or now outside a request (the CLI,
 * a test calling a service). For work the answer does not depend on, such as telling followers.
 */
export function afterAnswer(task: () => Promise<void>): Promise<void> {
  const defer = answering.getStore();
  if (!defer) return task();
  defer(task);
  return Promise.resolve();
}
