// The tiktoken stand-in's tokenizer: gpt-tokenizer's o200k_base (the project's own), one JSON
// request per line on stdin, one answer per line on stdout. decode answers the tokens' raw bytes
// (base64): Python decodes them with errors="replace", as tiktoken does.
import readline from "node:readline";
import o200k from "gpt-tokenizer/encoding/o200k_base";

const PLAIN = { disallowedSpecial: new Set() };
const utf8 = new TextEncoder();
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  const req = JSON.parse(line);
  if (req.op === "encode") {
    process.stdout.write(JSON.stringify({ tokens: o200k.encode(req.text, PLAIN) }) + "\n");
  } else {
    const parts = [];
    for (const part of o200k.bytePairEncodingCoreProcessor.decodeNativeGenerator(req.tokens))
      parts.push(typeof part === "string" ? utf8.encode(part) : part);
    process.stdout.write(
      JSON.stringify({ bytes: Buffer.concat(parts.map((p) => Buffer.from(p))).toString("base64") }) + "\n",
    );
  }
}
