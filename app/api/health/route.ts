import { readDatabaseHealth } from "@/server/live/database-health";
import { jsonAnswer } from "@/server/http/json-answer";

/**
 * Readiness for load balancers and Kubernetes probes: 200 while the database answers, 503 while it
 * does not (requests would fail; take the instance out of rotation, don't restart it). Not through
 * apiRoute: a probe carries no session and must be answered when the database that sessions live
 * in is down. It reads no user data and changes nothing, so anyone may ask.
 */
export async function GET(): Promise<Response> {
  const health = await readDatabaseHealth();
  return jsonAnswer(health, {
    status: health.database === "up" ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
}
