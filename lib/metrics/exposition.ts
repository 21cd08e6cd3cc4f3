/**
 * Prometheus' text exposition format (version 0.0.4), written by hand: a handful of lines does not
 * need a client library. https://prometheus.io/docs/instrumenting/exposition_formats/
 */

export const EXPOSITION_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export type MetricType = "counter" | "gauge" | "summary" | "histogram";

export interface Sample {
  /** Appended to the family's name (a summary's or histogram's `_sum`, `_count`, a histogram's `_bucket`); none for the plain sample. */
  suffix?: "_sum" | "_count" | "_bucket";
  labels?: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** A label value inside double quotes: backslash, double quote and line feed are escaped. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** HELP text: backslash and line feed are escaped (a double quote is not). */
function escapeHelp(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

/** Go's float syntax as Prometheus reads it: the infinities and NaN by name. */
export function formatSampleValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

function formatLabels(labels: Record<string, string> | undefined): string {
  const entries = Object.entries(labels ?? {});
  if (entries.length === 0) return "";
  for (const [name] of entries) {
    // Names come from this code, never from data: a bad one is a programming error.
    if (!LABEL_NAME.test(name) || name.startsWith("__")) throw new Error(`Invalid Prometheus label name: ${name}`);
  }
  return `{${entries.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(",")}}`;
}

/** The families as one exposition: HELP, TYPE, then each sample, one family after the other, ending in a line feed. */
export function renderExposition(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    if (!METRIC_NAME.test(family.name)) throw new Error(`Invalid Prometheus metric name: ${family.name}`);
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) {
      lines.push(
        `${family.name}${sample.suffix ?? ""}${formatLabels(sample.labels)} ${formatSampleValue(sample.value)}`,
      );
    }
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
