import { describe, expect, it } from "vitest";
import {
  findMentionedEmails,
  mentionLabel,
  mentionQueryAt,
  splitMentions,
  withMentionEmails,
  withMentionNames,
} from "./mentions";

describe("findMentionedEmails", () => {
  it("finds each mentioned email once, lower-cased, and ignores bare emails and trailing punctuation", () => {
    const body = "Hi @Grader@Demo.org, see @author@demo.org. Mail me at me@demo.org; again @grader@demo.org!";
    expect(findMentionedEmails(body)).toEqual(["grader@demo.org", "author@demo.org"]);
  });

  it("finds nothing in text without mentions", () => {
    expect(findMentionedEmails("weights @ 2x, email x@y.org")).toEqual([]);
  });
});

describe("splitMentions", () => {
  it("cuts text around mentions and keeps every character", () => {
    const parts = splitMentions("@a@b.org please check (cc @c@d.io).");
    expect(parts).toEqual([{ email: "a@b.org" }, { text: " please check (cc " }, { email: "c@d.io" }, { text: ")." }]);
  });
});

describe("mentionQueryAt", () => {
  it("gives the query being typed after @, and null elsewhere", () => {
    expect(mentionQueryAt("ask @gra", 8)).toEqual({ start: 4, query: "gra" });
    expect(mentionQueryAt("ask @grader@de", 14)).toEqual({ start: 4, query: "grader@de" });
    expect(mentionQueryAt("mail x@y", 8)).toBeNull();
    expect(mentionQueryAt("ask @gra now", 12)).toBeNull();
  });
});

describe("mentions by name", () => {
  const people = [
    { name: "Sam Staff", email: "staff@demo.org" },
    { name: "Ada", email: "ada@demo.org" },
    { name: "Ada", email: "ada2@demo.org" },
    { name: null, email: "anon@demo.org" },
  ];

  it("labels a person by name, unless the name is missing or shared", () => {
    expect(people.map((p) => mentionLabel(p, people))).toEqual([
      "Sam Staff",
      "ada@demo.org",
      "ada2@demo.org",
      "anon@demo.org",
    ]);
  });

  it("stores a name the composer inserted as the person's email, so it resolves to them", () => {
    const picked = [
      { label: "Sam", email: "sam@demo.org" },
      { label: "Sam Staff", email: "staff@demo.org" },
    ];
    const stored = withMentionEmails("@Sam Staff, and @Sam: see (@Sam Staff). Not @Samuel or me@Sam Staff", picked);
    expect(stored).toBe("@staff@demo.org, and @sam@demo.org: see (@staff@demo.org). Not @Samuel or me@Sam Staff");
    expect(findMentionedEmails(stored)).toEqual(["staff@demo.org", "sam@demo.org"]);
  });

  it("shows stored mentions by name", () => {
    expect(withMentionNames("cc @staff@demo.org and @ada@demo.org, @who@else.org", people)).toBe(
      "cc @Sam Staff and @ada@demo.org, @who@else.org",
    );
  });
});
