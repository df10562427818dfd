/**
 * A node of the tree-sitter-bash syntax tree, as plain data: the reader walks these, never the
 * parser's own objects (which live in the parser process). Offsets are UTF-16 indices into the
 * text that was parsed, as JavaScript strings count them.
 */
export interface SyntaxNode {
  /** The grammar's name for it (`command`, `word`, `string`…), or the token itself for anonymous ones (`|`, `&&`, `$(`). */
  type: string;
  /** A named node (a rule of the grammar) rather than an anonymous token. */
  named: boolean;
  start: number;
  end: number;
  children: SyntaxNode[];
}

/** The parser process's answer: node kinds once (`n…` named, `a…` anonymous), then four numbers a node in pre-order (kind, start, end, child count). */
export interface FlatTree {
  kinds: string[];
  nodes: number[];
}

/** Rebuilds the tree from its flat form, without recursion (a tree can be 50,000 levels deep). */
export function treeOfFlat(flat: FlatTree): SyntaxNode {
  const kinds = flat.kinds.map((k) => ({ type: k.slice(1), named: k.startsWith('n') }));
  const nodes = flat.nodes;
  let i = 0;
  const read = (): { node: SyntaxNode; count: number } => {
    const kind = kinds[nodes[i]!]!;
    const node: SyntaxNode = { type: kind.type, named: kind.named, start: nodes[i + 1]!, end: nodes[i + 2]!, children: [] };
    const count = nodes[i + 3]!;
    i += 4;
    return { node, count };
  };
  const root = read();
  const stack = [root];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.node.children.length >= top.count || i >= nodes.length) {
      stack.pop();
      continue;
    }
    const next = read();
    top.node.children.push(next.node);
    stack.push(next);
  }
  return root.node;
}
