/**
 * @mentions in comment text. A stored mention is `@` followed by a person's email
 * (`@grader@example.org`): unambiguous where names repeat, and it resolves to the person whatever
 * their name. People see names instead: the composer inserts `@Grace Grader` when the writer picks
 * someone after typing `@` and writes it as the email on sending (`withMentionEmails`); comments and
 * notifications show each mention by name (`mentionLabel`, `withMentionNames`).
 */

const MENTION = /(^|[^\w.@])@([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})/g;

/** The emails mentioned in `body`, lower-cased, each once, in order of first mention. */
export function findMentionedEmails(body: string): string[] {
  const seen = new Set<string>();
  for (const m of body.matchAll(MENTION)) seen.add(m[2].toLowerCase());
  return [...seen];
}

export type MentionPart = { text: string } | { email: string };

/** `body` cut into plain text and mentions, for rendering mentions as chips. */
export function splitMentions(body: string): MentionPart[] {
  const parts: MentionPart[] = [];
  let at = 0;
  for (const m of body.matchAll(MENTION)) {
    const start = m.index + m[1].length;
    if (start > at) parts.push({ text: body.slice(at, start) });
    parts.push({ email: m[2].toLowerCase() });
    at = start + 1 + m[2].length;
  }
  if (at < body.length) parts.push({ text: body.slice(at) });
  return parts;
}

/**
 * The @-query being typed at the caret, if any: `@gra|` gives { start, query: "gra" }, for the
 * composer's list of people.
 */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /(^|[^\w.@])@([^\s@]*(?:@[^\s@]*)?)$/.exec(before);
  if (!m) return null;
  return { start: caret - m[2].length - 1, query: m[2].toLowerCase() };
}

export interface MentionPerson {
  name: string | null;
  email: string;
}

/**
 * What a mention of `person` shows after its `@`: their name, or their email when they have no
 * name or someone else among `people` has the same one (so that a name never points at two people).
 */
export function mentionLabel(person: MentionPerson, people: readonly MentionPerson[]): string {
  const name = person.name?.trim();
  if (!name || name.includes("@")) return person.email;
  const same = people.filter((p) => p.name?.trim() === name && p.email !== person.email);
  return same.length > 0 ? person.email : name;
}

/** `body` as people read it: each `@email` of someone in `people` as `@Name` (others stay as typed). */
export function withMentionNames(body: string, people: readonly MentionPerson[]): string {
  return splitMentions(body)
    .map((part) => {
      if ("text" in part) return part.text;
      const person = people.find((p) => p.email === part.email);
      return `@${person ? mentionLabel(person, people) : part.email}`;
    })
    .join("");
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The composer's text as it is stored: each mention it inserted by name (`@Sam Staff`, from
 * `picked`) written as that person's `@email`. A name edited afterwards is plain text again.
 */
export function withMentionEmails(text: string, picked: readonly { label: string; email: string }[]): string {
  // Longer names first: "@Sam Staff" is not taken for "@Sam" followed by " Staff".
  const byLength = [...picked].filter((p) => p.label !== p.email).sort((a, b) => b.label.length - a.label.length);
  let out = text;
  for (const { label, email } of byLength) {
    out = out.replace(
      new RegExp(`(^|[^\\w.@])@${escapeRegExp(label)}(?![\\w@])`, "g"),
      (_, before: string) => `${before}@${email}`,
    );
  }
  return out;
}
