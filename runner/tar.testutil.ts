import * as tar from "tar-stream";

export type TarEntry = Partial<tar.Header> & { name: string; content?: string };

/** A .tar of these entries, built with tar-stream: tests craft archives no `tar` command would write. */
export async function tarBuffer(entries: TarEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const chunk of pack) chunks.push(chunk as Buffer);
  })();
  for (const { content, ...header } of entries) {
    await new Promise<void>((resolve, reject) => {
      const done = (err?: Error | null) => (err ? reject(err) : resolve());
      if (content !== undefined) pack.entry(header, content, done);
      else pack.entry(header, done);
    });
  }
  pack.finalize();
  await collected;
  return Buffer.concat(chunks);
}
