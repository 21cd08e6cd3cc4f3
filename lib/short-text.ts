/**
 * One line of text (whitespace collapsed) of at most `max` characters, cut at a word boundary with
 * an ellipsis: a name or requirement cut mid-word ("Selected subtree: The MLP for solving the Conv")
 * reads as a different word. A single word longer than the room is cut where the room ends.
 */
export function shortText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const room = flat.slice(0, max - 1);
  const space = room.lastIndexOf(" ");
  // A boundary far back would waste most of the room: cut the long word instead.
  const cut = space >= max * 0.6 ? room.slice(0, space) : room;
  return `${cut.replace(/[\s,;:.(\-–—]+$/, "")}…`;
}
