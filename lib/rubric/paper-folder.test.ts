import { describe, expect, it } from "vitest";
import { formatBlacklist, PaperFolderError, parseBlacklist, parsePaperConfig } from "./paper-folder";
import { ALL_PAPERS, readPaperText, skipWithoutData } from "./paperbench-data.testutil";

describe("parsePaperConfig", () => {
  it("reads id and title, quoted or not, ignoring other keys", () => {
    expect(parsePaperConfig('id: bam\ntitle: "Batch and match: black-box VI"\n')).toEqual({
      id: "bam",
      title: "Batch and match: black-box VI",
    });
    expect(parsePaperConfig("id: fre\ntitle: Unsupervised Zero-Shot RL\nauthors: [a, b]\n")).toEqual({
      id: "fre",
      title: "Unsupervised Zero-Shot RL",
    });
    expect(parsePaperConfig("title: Only a title")).toEqual({ title: "Only a title" });
    expect(parsePaperConfig("")).toEqual({});
    expect(parsePaperConfig("# nothing but a comment\n")).toEqual({});
  });

  it("names the key that is not a string", () => {
    const expectError = (text: string, message: string, key?: string) => {
      let caught: unknown;
      try {
        parsePaperConfig(text);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(PaperFolderError);
      expect((caught as PaperFolderError).message).toBe(message);
      expect((caught as PaperFolderError).key).toBe(key);
    };
    expectError("id: 123\ntitle: x", "config.yaml: id: must be a string", "id");
    expectError("id: x\ntitle: [a, b]", "config.yaml: title: must be a string", "title");
    expectError("id: x\ntitle:", "config.yaml: title: must be a string", "title");
    expectError("- id: x", "config.yaml: must be a mapping with the keys id and title");
    expectError("just text", "config.yaml: must be a mapping with the keys id and title");
  });

  it("reports a YAML syntax error with its line and column", () => {
    expect(() => parsePaperConfig("id: x\ntitle: [unclosed\n")).toThrow(
      /^config\.yaml: YAML syntax error at line \d+, column \d+: /,
    );
    try {
      parsePaperConfig("id: a\nid: b\n");
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(PaperFolderError);
      expect((err as PaperFolderError).message).toBe(
        "config.yaml: YAML syntax error at line 2, column 1: Map keys must be unique",
      );
      expect([(err as PaperFolderError).line, (err as PaperFolderError).column]).toEqual([2, 1]);
    }
  });

  it.skipIf(skipWithoutData)("reads every real config.yaml", () => {
    for (const paper of ALL_PAPERS) {
      const config = parsePaperConfig(readPaperText(paper, "config.yaml"));
      // The one published mismatch between folder and id is kept as is.
      expect(config.id).toBe(paper === "stochastic-interpolants" ? "stochastic-interpolant" : paper);
      expect(config.title).toMatch(/\S/);
    }
    expect(parsePaperConfig(readPaperText("bam", "config.yaml")).title).toBe(
      "Batch and match: black-box variational inference with a score-based divergence",
    );
  });
});

describe("parseBlacklist and formatBlacklist", () => {
  it("reads one URL a line, skipping blanks and comments", () => {
    const text = [
      "# URLs the agent must not open",
      "  https://github.com/a/b  ",
      "",
      "https://example.com/page#section",
      "https://example.com/x # the authors' copy",
      "\t# indented comment",
    ].join("\r\n");
    expect(parseBlacklist(text)).toEqual([
      "https://github.com/a/b",
      "https://example.com/page#section",
      "https://example.com/x",
    ]);
  });

  it("treats a sole none (or nothing) as an empty list", () => {
    expect(parseBlacklist("none")).toEqual([]);
    expect(parseBlacklist("none\n")).toEqual([]);
    expect(parseBlacklist("# no URL\nNone\n")).toEqual([]);
    expect(parseBlacklist("")).toEqual([]);
    expect(parseBlacklist("\n\n")).toEqual([]);
  });

  it("writes one URL a line, or none", () => {
    expect(formatBlacklist([])).toBe("none\n");
    expect(formatBlacklist(["https://a", " https://b "])).toBe("https://a\nhttps://b\n");
    for (const urls of [[], ["https://github.com/x/y"], ["https://a#frag", "https://b"]]) {
      expect(parseBlacklist(formatBlacklist(urls))).toEqual(urls);
    }
  });

  it.skipIf(skipWithoutData)("reads every real blacklist.txt", () => {
    for (const paper of ALL_PAPERS) {
      const text = readPaperText(paper, "blacklist.txt");
      const urls = parseBlacklist(text);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) expect(url).toMatch(/^https:\/\/\S+$/);
      expect(parseBlacklist(formatBlacklist(urls))).toEqual(urls);
    }
    expect(parseBlacklist(readPaperText("pinn", "blacklist.txt"))).toEqual([
      "https://github.com/pratikrathore8/opt_for_pinns",
    ]);
  });
});
