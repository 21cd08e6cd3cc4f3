import { describe, expect, it } from "vitest";
import { renderExposition } from "./exposition";
import { Histogram } from "./histogram";

describe("Histogram", () => {
  it("writes cumulative buckets with +Inf, the sum and the count per label set", () => {
    const h = new Histogram("t_seconds", "A test.", [0.1, 1]);
    h.observe({ route: "/a", method: "GET" }, 0.05);
    h.observe({ method: "GET", route: "/a" }, 0.5);
    h.observe({ route: "/a", method: "GET" }, 3);
    h.observe({ route: "/b", method: "POST" }, 1);
    expect(renderExposition([h.family()])).toBe(
      [
        "# HELP t_seconds A test.",
        "# TYPE t_seconds histogram",
        't_seconds_bucket{route="/a",method="GET",le="0.1"} 1',
        't_seconds_bucket{route="/a",method="GET",le="1"} 2',
        't_seconds_bucket{route="/a",method="GET",le="+Inf"} 3',
        't_seconds_sum{route="/a",method="GET"} 3.55',
        't_seconds_count{route="/a",method="GET"} 3',
        't_seconds_bucket{route="/b",method="POST",le="0.1"} 0',
        't_seconds_bucket{route="/b",method="POST",le="1"} 1',
        't_seconds_bucket{route="/b",method="POST",le="+Inf"} 1',
        't_seconds_sum{route="/b",method="POST"} 1',
        't_seconds_count{route="/b",method="POST"} 1',
        "",
      ].join("\n"),
    );
  });

  it("has no samples before the first observation", () => {
    expect(new Histogram("t_seconds", "A test.").family().samples).toEqual([]);
  });
});
