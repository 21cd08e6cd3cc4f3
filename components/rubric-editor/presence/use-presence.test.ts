import { describe, expect, it } from "vitest";
import { unchangedOr, type PresencePerson } from "./use-presence";

const person = (over: Partial<PresencePerson> = {}): PresencePerson => ({
  sessionId: "session-a",
  userId: "u1",
  name: "Ada",
  selectedKey: null,
  editingKey: null,
  ...over,
});

describe("the presence list an editor keeps", () => {
  it("keeps the list it shows when the news says the same (its own report echoed back, no one else)", () => {
    const shown: PresencePerson[] = [];
    expect(unchangedOr(shown, [])).toBe(shown);
    const two = [person(), person({ sessionId: "session-b", userId: "u2", name: "Bo", selectedKey: "k1" })];
    expect(
      unchangedOr(
        two,
        two.map((p) => ({ ...p })),
      ),
    ).toBe(two);
  });

  it("takes the news when anyone arrived, left, moved, started editing or was renamed", () => {
    const shown = [person({ selectedKey: "k1" })];
    const changes: PresencePerson[][] = [
      [],
      [person({ selectedKey: "k1" }), person({ sessionId: "session-b" })],
      [person({ selectedKey: "k2" })],
      [person({ selectedKey: "k1", editingKey: "k1" })],
      [person({ selectedKey: "k1", name: "Ada L." })],
      [person({ selectedKey: "k1", sessionId: "session-c" })],
    ];
    for (const next of changes) expect(unchangedOr(shown, next)).toBe(next);
  });
});
