import { describe, expect, it } from "vitest";
import { afterAnswer, answeringWith } from "./after-answer";

describe("afterAnswer", () => {
  it("runs the task at once outside a request", async () => {
    const ran: string[] = [];
    await afterAnswer(async () => {
      ran.push("task");
    });
    expect(ran).toEqual(["task"]);
  });

  it("inside a request hands the task to the request's deferral, which runs it after the answer", async () => {
    const ran: string[] = [];
    const deferred: (() => Promise<void>)[] = [];
    const answer = await answeringWith(
      (task) => deferred.push(task),
      async () => {
        await afterAnswer(async () => {
          ran.push("announce");
        });
        ran.push("answer");
        return "the answer";
      },
    );
    expect(answer).toBe("the answer");
    expect(ran).toEqual(["answer"]);
    await Promise.all(deferred.map((task) => task()));
    expect(ran).toEqual(["answer", "announce"]);
  });

  it("does not leak the request's deferral to work started outside it", async () => {
    const deferred: unknown[] = [];
    await answeringWith(
      (task) => deferred.push(task),
      async () => undefined,
    );
    const ran: string[] = [];
    await afterAnswer(async () => {
      ran.push("cli");
    });
    expect(ran).toEqual(["cli"]);
    expect(deferred).toEqual([]);
  });
});
