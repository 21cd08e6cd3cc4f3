"use client";

import { Dialog, ShortcutGroups, type ShortcutGroup } from "@/components/ui/dialog";

const isMac = () => typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

export function shortcutGroups(canEdit: boolean): ShortcutGroup[] {
  const mod = isMac() ? "⌘" : "Ctrl";
  return [
    {
      title: "Move around",
      keys: [
        [["↑", "↓"], "Previous / next node"],
        [["→"], "Expand, or go to the first sub-task"],
        [["←"], "Collapse, or go to the parent"],
        [["Space"], "Expand or collapse"],
        [["Home", "End"], "First / last node"],
        [["Shift", "↑/↓"], "Extend the selection"],
        [[mod, "click"], "Add to or remove from the selection"],
        [["*"], "Expand or collapse all siblings"],
      ],
    },
    ...(canEdit
      ? [
          {
            title: "Edit",
            keys: [
              [["Enter"], "Edit the requirement text (also a double click)"],
              [["Enter"], "While editing: save"],
              [["Shift", "Enter"], "While editing: new line"],
              [["Esc"], "While editing: cancel"],
              [["a"], "Add a child node"],
              [["s"], "Add a sibling node after this one"],
              [["d"], "Duplicate the subtree"],
              [["Delete"], "Delete the subtree (also Backspace)"],
              [[mod, "Z"], "Undo your last change"],
              [[mod, "Shift", "Z"], "Redo (also Ctrl+Y)"],
              [[mod, "Enter"], "In the inspector: save the requirement text"],
            ] as [string[], string][],
          },
        ]
      : []),
    {
      title: "Find",
      keys: [
        [["/"], "Search the requirements"],
        [["Enter"], "In the search box: next match"],
        [["Shift", "Enter"], "In the search box: previous match"],
        [["Esc"], "In the search box: clear it"],
        [["?"], "Show or hide this list"],
      ],
    },
  ];
}

export function ShortcutsDialog({ open, onClose, canEdit }: { open: boolean; onClose(): void; canEdit: boolean }) {
  if (!open) return null;
  return (
    <Dialog onClose={onClose} title="Keyboard shortcuts" testId="shortcuts-dialog" closeKeys={["Escape", "?"]}>
      <ShortcutGroups
        groups={shortcutGroups(canEdit)}
        groupClassName={(g) => (g.title === "Edit" ? "sm:row-span-2" : "")}
      />
    </Dialog>
  );
}
