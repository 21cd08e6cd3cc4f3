import { apiRoute } from "@/server/http/route";
import { EXPOSITION_CONTENT_TYPE } from "@/lib/metrics/exposition";
import { renderStudioMetrics } from "@/server/metrics/studio-metrics";

/** Prometheus metrics, read from the database at each scrape (staff, or the scrape token METRICS_TOKEN). */
export const GET = apiRoute(
  { staffOrScrapeToken: true },
  async ({ store }) =>
    new Response(await renderStudioMetrics(store), {
      headers: { "content-type": EXPOSITION_CONTENT_TYPE, "cache-control": "no-store" },
    }),
);
