import "server-only";
import { Histogram } from "@/lib/metrics/histogram";

const globalForMetrics = globalThis as unknown as { __rubricStudioHttpLatency?: Histogram };

/**
 * HTTP latency by route, method and status: every API request through apiRoute (server/http/route.ts)
 * is observed here, and GET /api/metrics writes it out. One histogram per process, on globalThis:
 * Next bundles each route apart, and a module-level one would be one per route bundle.
 */
export function httpLatency(): Histogram {
  globalForMetrics.__rubricStudioHttpLatency ??= new Histogram(
    "http_request_duration_seconds",
    "API requests by route pattern, method and status: seconds until the response (a stream's headers), since this process started.",
  );
  return globalForMetrics.__rubricStudioHttpLatency;
}

export function recordHttpRequest(route: string, method: string, status: number, seconds: number): void {
  httpLatency().observe({ route, method, status: String(status) }, seconds);
}
