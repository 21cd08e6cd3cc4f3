import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { defaultDataDir } from "@/db/client";
import { readServerEnv } from "@/lib/env";

/**
 * AUTH_SECRET from the environment; otherwise one generated on first start and kept in the data
 * directory (never committed), so the embedded mode works on a fresh machine and sessions survive
 * restarts. Several studio instances behind a load balancer must share an explicit AUTH_SECRET.
 */
export function getAuthSecret(): string {
  const fromEnv = readServerEnv().AUTH_SECRET;
  if (fromEnv) return fromEnv;
  const file = path.join(defaultDataDir(), "auth-secret");
  let secret: string;
  try {
    secret = fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    secret = randomBytes(32).toString("base64url");
    fs.writeFileSync(file, secret, { mode: 0o600 });
  }
  process.env.AUTH_SECRET = secret;
  return secret;
}
