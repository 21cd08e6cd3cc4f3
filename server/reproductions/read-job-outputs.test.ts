/**
 * One output file for the files viewer: its text by the submission's own rule, an image's bytes
 * only for a raster type, nothing that is not among the outputs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Job } from "@/db/schema";
import { getBlobStore } from "@/server/blobs/get-blob-store";
import { makeTarGz } from "@/server/submissions/archive.testutil";
import { readJobOutputFile, readJobOutputImage } from "./read-job-outputs";

process.env.BLOB_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "rs-read-outputs-"));

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);
const FILES = [
  { name: "./results/out.csv", data: "a,b\n1,2\n" },
  { name: "plot.png", data: PNG },
  { name: "evil.svg", data: "<svg><script>alert(1)</script></svg>" },
  { name: "weights.bin", data: Buffer.from([0, 1, 2, 3]) },
];

describe("reading a reproduction's outputs for the viewer", () => {
  let job: Job;
  beforeAll(async () => {
    const file = path.join(process.env.BLOB_DIR!, "outputs.tar.gz");
    fs.writeFileSync(file, await makeTarGz(FILES));
    const { sha256 } = await getBlobStore().putFile(file);
    const files = FILES.map((f) => ({
      path: f.name.replace(/^\.\//, ""),
      size: Buffer.byteLength(f.data),
      changed: true,
    }));
    job = {
      id: "00000000-0000-4000-8000-000000000001",
      outputsSha256: sha256,
      result: { outputs: { files, bytes: 0 } },
    } as unknown as Job;
  });

  it("answers a text file's content, a binary one as not kept, and markup as text", async () => {
    expect((await readJobOutputFile(job, "results/out.csv")).file).toMatchObject({
      content: "a,b\n1,2\n",
      skipped: null,
      image: false,
    });
    expect((await readJobOutputFile(job, "weights.bin")).file).toMatchObject({ content: null, skipped: "binary" });
    expect((await readJobOutputFile(job, "evil.svg")).file).toMatchObject({
      content: "<svg><script>alert(1)</script></svg>",
      image: false,
    });
    expect((await readJobOutputFile(job, "plot.png")).file).toMatchObject({ content: null, image: true });
  });

  it("serves only raster images as bytes, and nothing that is not among the outputs", async () => {
    expect(await readJobOutputImage(job, "plot.png")).toEqual({ bytes: PNG, contentType: "image/png" });
    await expect(readJobOutputImage(job, "evil.svg")).rejects.toMatchObject({ code: "bad_request" });
    await expect(readJobOutputFile(job, "../etc/passwd")).rejects.toMatchObject({ code: "not_found" });
    await expect(readJobOutputImage({ ...job, outputsSha256: null } as Job, "plot.png")).rejects.toMatchObject({
      code: "not_found",
    });
  });
});
