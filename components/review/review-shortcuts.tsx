"use client";

import { Dialog, ShortcutGroups, type ShortcutGroup } from "@/components/ui/dialog";

const GROUPS: ShortcutGroup[] = [
  {
    title: "Move around",
    keys: [
      [["j"], "Next leaf (in the filtered tree)"],
      [["k"], "Previous leaf"],
      [["n"], "Next leaf you have not reviewed (or marked unsure)"],
      [["↑", "↓"], "Previous / next row of the tree (when it has the focus)"],
      [["←", "→"], "Collapse / expand"],
    ],
  },
  {
    title: "Score",
    keys: [
      [["1"], "Score 1: confirms the verdict, or starts an override"],
      [["0"], "Score 0: confirms the verdict, or starts an override"],
      [["r"], "Write the reason of an override"],
      [["u"], "Unsure: write a note for staff; Enter skips the leaf, flagged"],
      [["Enter"], "In the reason: commit the score"],
      [["Esc"], "In the reason: cancel"],
      [["?"], "Show or hide this list"],
    ],
  },
];

export function ReviewShortcutsDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  if (!open) return null;
  return (
    <Dialog onClose={onClose} title="Keyboard shortcuts" testId="review-shortcuts" closeKeys={["Escape", "?"]}>
      <ShortcutGroups groups={GROUPS} />
    </Dialog>
  );
}
