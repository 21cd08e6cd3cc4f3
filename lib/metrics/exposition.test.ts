import { describe, expect, it } from "vitest";
import { escapeLabelValue, formatSampleValue, renderExposition } from "./exposition";

describe("Prometheus text exposition", () => {
  it("escapes backslash, double quote and line feed in a label value, and backslash and line feed in HELP", () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
    const text = renderExposition([
      {
        name: "x_total",
        help: 'per "model"\\ by\nline',
        type: "counter",
        samples: [{ labels: { model: 'm"1' }, value: 3 }],
      },
    ]);
    expect(text).toBe('# HELP x_total per "model"\\\\ by\\nline\n# TYPE x_total counter\nx_total{model="m\\"1"} 3\n');
  });

  it("writes a summary's suffixes, unlabelled samples and the special values by name", () => {
    const text = renderExposition([
      {
        name: "wait_seconds",
        help: "h",
        type: "summary",
        samples: [
          { labels: { quantile: "0.5" }, value: NaN },
          { suffix: "_sum", value: 1.5 },
          { suffix: "_count", value: 2 },
        ],
      },
      { name: "up", help: "h", type: "gauge", samples: [{ value: Infinity }] },
    ]);
    expect(text.split("\n")).toEqual([
      "# HELP wait_seconds h",
      "# TYPE wait_seconds summary",
      'wait_seconds{quantile="0.5"} NaN',
      "wait_seconds_sum 1.5",
      "wait_seconds_count 2",
      "# HELP up h",
      "# TYPE up gauge",
      "up +Inf",
      "",
    ]);
    expect(formatSampleValue(-Infinity)).toBe("-Inf");
    expect(renderExposition([])).toBe("");
  });

  it("refuses a metric or label name the format cannot carry", () => {
    expect(() => renderExposition([{ name: "bad-name", help: "h", type: "gauge", samples: [] }])).toThrow(
      /metric name/,
    );
    expect(() =>
      renderExposition([
        { name: "ok", help: "h", type: "gauge", samples: [{ labels: { "bad label": "v" }, value: 1 }] },
      ]),
    ).toThrow(/label name/);
  });
});
