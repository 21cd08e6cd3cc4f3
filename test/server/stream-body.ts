/**
 * A client that sends a large request body made on the fly (never held whole) and stops as soon as
 * the server answers: what the body-limit tests (security-http.server.test.ts) and the
 * `auth_oversized_body_peak_mb` benchmark (bench/oversized-body.ts) send.
 */
import http from "node:http";

export const MiB = 1024 * 1024;

export interface StreamedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Bytes of the body written before the answer came. */
  sent: number;
}

/**
 * Sends `total` bytes of `fill` (made on the fly, never held whole) to `url`, chunked unless
 * `declare` puts the length in a Content-Length, and stops sending as soon as the answer arrives.
 * Resolves with the answer; rejects if the connection fails before one came.
 */
export function streamBody(
  url: string,
  opts: { method: string; headers: Record<string, string>; total: number; declare?: boolean; fill?: string },
): Promise<StreamedAnswer> {
  const chunk = Buffer.alloc(64 * 1024, opts.fill ?? "a");
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(url, {
      method: opts.method,
      // Without a Content-Length, node sends the body chunked.
      headers: { ...opts.headers, ...(opts.declare ? { "content-length": String(opts.total) } : {}) },
    });
    req.on("response", (res) => {
      answered = true;
      const sentBeforeAnswer = sent;
      const parts: Buffer[] = [];
      res.on("data", (part: Buffer) => parts.push(part));
      res.on("end", () => {
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(parts).toString("utf8"),
          sent: sentBeforeAnswer,
        });
        req.destroy();
      });
      res.on("error", reject);
    });
    req.on("error", (err) => {
      // Once the answer is in, the server closing the connection under the rest of the upload is expected.
      if (!answered) reject(new Error(`the connection failed before an answer, after ${sent} bytes: ${err.message}`));
    });
    const pump = () => {
      while (!answered && sent < opts.total) {
        const part = sent + chunk.length <= opts.total ? chunk : chunk.subarray(0, opts.total - sent);
        sent += part.length;
        if (!req.write(part)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}
