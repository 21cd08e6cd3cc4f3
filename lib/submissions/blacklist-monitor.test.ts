import { describe, expect, it } from "vitest";
import { BlacklistMonitor, matchLine, parseBlacklistRules, scanLog } from "./blacklist-monitor";

const REPO = ["https://github.com/ROIM1998/APT"];
const hit = (line: string, blacklist: string[] = REPO) => matchLine(line, parseBlacklistRules(blacklist))?.rule ?? null;

describe("blacklist monitor: what a line hits", () => {
  it("finds the blacklisted repository however the URL is written", () => {
    for (const line of [
      "curl https://github.com/ROIM1998/APT",
      "fetching http://github.com/ROIM1998/APT/",
      "browse https://www.github.com/roim1998/apt/blob/main/train.py",
      "git clone https://GitHub.com/ROIM1998/APT.git",
      "git clone git@github.com:ROIM1998/APT.git",
      "see github.com/ROIM1998/APT?tab=readme#usage",
      '{"tool": "browser", "url": "https:\\/\\/github.com\\/ROIM1998\\/APT\\/tree\\/main"}',
      "(https://github.com/ROIM1998/APT).",
    ]) {
      expect(hit(line), line).toBe("https://github.com/ROIM1998/APT");
    }
  });

  it("does not take a near miss for a hit", () => {
    for (const line of [
      "https://github.com/ROIM1998/APT-other", // another repository
      "https://github.com/ROIM1998/APTx/README.md",
      "https://github.com/ROIM1998", // the owner, not the repository
      "https://notgithub.com/ROIM1998/APT", // another host ending the same way
      "https://github.com.evil.org/ROIM1998/APT",
      "https://gitlab.com/ROIM1998/APT",
      "pip install apt; the paper's APT method", // the name alone
    ]) {
      expect(hit(line), line).toBeNull();
    }
  });

  it("counts a domain entry's subdomains, never a host that only ends alike", () => {
    const bl = ["example.org"];
    expect(hit("GET https://example.org/", bl)).toBe("example.org");
    expect(hit("GET https://docs.example.org/a/b", bl)).toBe("example.org");
    expect(hit("GET https://a.b.EXAMPLE.org:8443/x", bl)).toBe("example.org");
    expect(hit("GET https://notexample.org/", bl)).toBeNull();
    expect(hit("GET https://example.org.uk/", bl)).toBeNull();
    expect(hit("mail me at someone@example.org", bl)).toBe("example.org");
  });

  it("a URL entry on a subdomain matches that host and its subdomains only", () => {
    const bl = ["https://docs.example.org/guide/"];
    expect(hit("https://docs.example.org/guide/part-2", bl)).toBe("https://docs.example.org/guide/");
    expect(hit("https://docs.example.org/guide", bl)).toBe("https://docs.example.org/guide/");
    expect(hit("https://example.org/guide/part-2", bl)).toBeNull();
    expect(hit("https://docs.example.org/guidebook", bl)).toBeNull();
  });

  it("an entry that names no host matches as a whole word", () => {
    const bl = ["secret-dataset"];
    expect(hit("downloading secret-dataset v2", bl)).toBe("secret-dataset");
    expect(hit("downloading mysecret-datasets", bl)).toBeNull();
  });
});

describe("blacklist monitor: a scan", () => {
  const log = [
    "step 1: planning",
    "step 2: open https://arxiv.org/abs/1234",
    "step 3: open https://github.com/ROIM1998/APT/blob/main/README.md",
    "step 4: open https://notgithub.com/ROIM1998/APT",
    "step 5: git clone git@github.com:roim1998/apt.git",
    "",
  ].join("\r\n");

  it("returns each matching line with its number, text and rule", () => {
    const scan = scanLog(log, REPO);
    expect(scan.lines).toBe(5);
    expect(scan.totalHits).toBe(2);
    expect(scan.hits).toEqual([
      {
        line: 3,
        text: "step 3: open https://github.com/ROIM1998/APT/blob/main/README.md",
        rule: REPO[0],
        url: "https://github.com/ROIM1998/APT/blob/main/README.md",
      },
      {
        line: 5,
        text: "step 5: git clone git@github.com:roim1998/apt.git",
        rule: REPO[0],
        url: "git@github.com:roim1998/apt.git",
      },
    ]);
  });

  it("an empty blacklist finds nothing", () => {
    expect(scanLog(log, []).hits).toEqual([]);
    expect(new BlacklistMonitor([]).active).toBe(false);
  });

  it("keeps at most maxHits lines but counts them all, and cuts long lines around the hit", () => {
    const many = Array.from(
      { length: 30 },
      (_, i) => `${"x".repeat(i === 0 ? 2000 : 0)} line ${i} https://github.com/ROIM1998/APT`,
    ).join("\n");
    const scan = scanLog(many, REPO, { maxHits: 5, maxLineChars: 100 });
    expect(scan.totalHits).toBe(30);
    expect(scan.hits.map((h) => h.line)).toEqual([1, 2, 3, 4, 5]);
    expect(scan.hits[0].text.length).toBeLessThanOrEqual(102);
    expect(scan.hits[0].text).toContain("github.com/ROIM1998/APT");
  });

  it("gives the same result whatever the chunks, and counts a huge line once", () => {
    const huge = `${"a ".repeat(100_000)}https://github.com/ROIM1998/APT ${"b ".repeat(100_000)}https://github.com/ROIM1998/APT`;
    const text = `first\n${huge}\nlast https://github.com/ROIM1998/APT\n`;
    const whole = scanLog(text, REPO);
    const monitor = new BlacklistMonitor(REPO);
    for (let i = 0; i < text.length; i += 777) monitor.feed(text.slice(i, i + 777));
    monitor.end();
    expect(monitor.result()).toEqual(whole);
    expect(whole.hits.map((h) => h.line)).toEqual([2, 3]);
    expect(whole.lines).toBe(3);
  });

  it("sees a URL cut between two windows of a line with no newline", () => {
    const url = "https://github.com/ROIM1998/APT";
    const monitor = new BlacklistMonitor(REPO);
    // The URL straddles the point where the first window of the line is scanned.
    monitor.feed("z".repeat(64 * 1024 - 10) + url.slice(0, 15));
    monitor.feed(url.slice(15) + " and more");
    monitor.end();
    expect(monitor.result().hits.map((h) => h.line)).toEqual([1]);
  });
});
