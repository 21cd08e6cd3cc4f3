import type { NextConfig } from "next";

/**
 * The Content-Security-Policy of every answer. Scripts and styles only from the studio itself:
 * 'unsafe-inline' stays in script-src because Next.js streams inline scripts (the RSC payload)
 * that only a per-request nonce could allow, and a nonce needs a proxy (which clones every request
 * body in memory) and makes every page dynamic; style-src needs it for React's style attributes
 * (tree indentation, charts). No plugins, no <base>, nothing may frame the studio, and the pages
 * talk only to the studio (fetch, the live feed's EventSource). form-action is left open: a
 * sign-in with GitHub or OIDC ends in a redirect to the provider, which form-action would block.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // `next dev` rebuilds call stacks with eval; a production build never evaluates strings.
  `script-src 'self' 'unsafe-inline'${process.env.NODE_ENV === "development" ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS = [
  { key: "Content-Security-Policy", value: CONTENT_SECURITY_POLICY },
  // frame-ancestors for browsers that predate it: no page of the studio can be framed (clickjacking).
  { key: "X-Frame-Options", value: "DENY" },
  // Paper ids and grading ids in URLs stay on the studio: a link out sends no Referer at all.
  { key: "Referrer-Policy", value: "same-origin" },
  // An uploaded file served back (exports, submissions) is never sniffed into HTML or script.
  { key: "X-Content-Type-Options", value: "nosniff" },
];

const nextConfig: NextConfig = {
  // Native and WASM packages load from node_modules at run time; bundling PGlite breaks every request.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2"],
  typedRoutes: false,
  poweredByHeader: false,
  // NEXT_DIST_DIR lets several checkouts' builds (parallel work, benchmarks) live side by side.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  experimental: {
    // Turbopack keeps a build cache by default (Next.js 16.4) that speeds up the next build of the
    // same checkout (benchmark builds, a developer's rebuilds). CI builds a clean clone once and
    // never reads it, and writing it took 47 s of CPU there, beside vitest on the two cores.
    turbopackFileSystemCacheForBuild: process.env.CI !== "true",
    // Source maps of every chunk (154 MB for the server alone) let a production studio print an
    // error's stack in source files. CI's build only serves its tests and is thrown away: without
    // them the build took 240 CPU-s instead of 315 (146 s alone instead of 216) on the 2-core machine,
    // and a studio's stack in CI's log points into the built chunks instead.
    turbopackSourceMaps: process.env.CI !== "true",
  },
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;
