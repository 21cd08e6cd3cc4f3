import { createElement, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { Tree, type NodeApi, type NodeRendererProps } from "react-arborist";
import { describe, expect, it } from "vitest";

interface Item {
  id: string;
  children?: Item[];
}

function Row({ node, style }: NodeRendererProps<Item>) {
  return createElement("div", { style }, node.id);
}

/** A tree of `branches` × `leaves`, and a children accessor that counts the nodes it is asked about. */
function countedTree(branches: number, leaves: number) {
  const data: Item[] = Array.from({ length: branches }, (_, b) => ({
    id: `b${b}`,
    children: Array.from({ length: leaves }, (_, l) => ({ id: `b${b}-l${l}` })),
  }));
  let asked = 0;
  const childrenAccessor = (d: Item) => {
    asked++;
    return d.children ?? null;
  };
  return { data, childrenAccessor, asked: () => asked };
}

/** A tree over `tree`'s data, 200 px tall with 20 px rows and every branch closed, rendered once to HTML. */
function renderClosedTree(tree: ReturnType<typeof countedTree>, row: (props: NodeRendererProps<Item>) => ReactElement) {
  return renderToString(
    // eslint-disable-next-line react/no-children-prop -- react-arborist's children is the row component, not content
    createElement(Tree<Item>, {
      data: tree.data,
      childrenAccessor: tree.childrenAccessor,
      width: 300,
      height: 200,
      rowHeight: 20,
      openByDefault: false,
      children: row,
    }),
  );
}

describe("react-arborist's mount (patches/react-arborist+*.patch)", () => {
  // Every build of react-arborist's nodes walks the whole data (pinn: 2,551 nodes, a NodeApi
  // each). Unpatched, a mount built them three times: in TreeApi's constructor and again in both
  // of the provider's update memos. The editor and the review page mount a tree on every open.
  it("builds the nodes once when a tree mounts", () => {
    const tree = countedTree(20, 50);
    const html = renderClosedTree(tree, Row);
    expect(html).toContain("b0");
    expect(tree.asked()).toBe(20 * 51);
  });

  // The second part of the patch: a node's bound callbacks are made when first read (a rendered
  // row), not for every node at every build; a detached callback still acts on its own node. They
  // live in a field every node has, not in properties added to the used ones, so used and unused
  // nodes keep one shape for V8 (react-arborist reads every node's fields on each build).
  it("binds a node's callbacks when first read, and they stay bound to it", () => {
    const tree = countedTree(3, 2);
    const rendered: NodeApi<Item>[] = [];
    renderClosedTree(tree, (props) => {
      rendered.push(props.node);
      return Row(props);
    });
    const branch = rendered.find((n) => n.id === "b1")!;
    const hidden = branch.children![0];
    expect(hidden.id).toBe("b1-l0");
    for (const name of ["select", "toggle", "open", "edit", "handleClick"])
      expect(Object.hasOwn(hidden, name), `${name} made before use`).toBe(false);
    const { toggle } = branch; // detached, as `<Toggle onClick={node.toggle} />` passes it
    expect(branch.isOpen).toBe(false);
    toggle();
    expect(branch.tree.isOpen("b1")).toBe(true);
    expect(branch.toggle).toBe(toggle);
    // Kept in one field every node has from the start: nodes keep one shape, used or not.
    expect(Object.getOwnPropertyNames(branch)).toEqual(Object.getOwnPropertyNames(hidden));
  });
});
