/**
 * A bound on what a YAML document's aliases expand to. Why: an alias repeats its anchor's whole
 * value, and aliases of aliases multiply ("billion laughs"), so a 100 KB file can expand to tens
 * of megabytes (held in memory, then stored in Redis) or never finish. The expanded size is
 * counted from the parsed nodes before anything is expanded, each anchor's size once.
 */
import { isAlias, isCollection, isNode, isPair, isScalar, visit, type Alias, type Document, type Node } from 'yaml';

/** The most a document may expand to: this many times the file, plus a little for a tiny file. */
export const YAML_EXPANSION = { multiple: 10, slackChars: 64 * 1024 } as const;

/** Why the aliases are refused, and at which offset of the text (the alias that passed the bound). */
export interface AliasProblem {
  readonly offset: number;
  readonly message: string;
}

/** Each alias's anchored node, found as YAML does: the last anchor of that name before the alias. */
function anchorTargets(doc: Document): Map<Alias, Node> {
  const latest = new Map<string, Node>();
  const targets = new Map<Alias, Node>();
  visit(doc, {
    Node: (_key, node) => {
      if (isAlias(node)) {
        const target = latest.get(node.source);
        if (target !== undefined) targets.set(node, target);
      } else if (node.anchor !== undefined) latest.set(node.anchor, node);
    },
  });
  return targets;
}

class TooLarge extends Error {
  constructor(readonly problem: AliasProblem) {
    super(problem.message);
  }
}

/** Undefined when the document's aliases keep it within the bound; else where and why not. */
export function aliasProblem(doc: Document, textLength: number): AliasProblem | undefined {
  const limit = textLength * YAML_EXPANSION.multiple + YAML_EXPANSION.slackChars;
  const targets = anchorTargets(doc);
  if (targets.size === 0) return undefined;
  const sizes = new Map<Node, number>();
  const open = new Set<Node>();
  const tooLarge = (offset: number): TooLarge =>
    new TooLarge({
      offset,
      message:
        `aliases expand the document to more than ${YAML_EXPANSION.multiple} times the file's size; ` +
        'write the repeated values out, or use fewer aliases',
    });
  const sizeOf = (node: unknown): number => {
    if (!isNode(node) && !isPair(node)) return 1;
    if (isPair(node)) return sizeOf(node.key) + sizeOf(node.value) + 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    const offset = node.range?.[0] ?? 0;
    open.add(node);
    let size = 1;
    if (isAlias(node)) {
      const target = targets.get(node);
      if (target !== undefined && open.has(target))
        throw new TooLarge({ offset, message: 'an alias refers to the value that contains it; remove the alias' });
      size += sizeOf(target);
      // Why checked at each alias: a nested one passes the bound long before the whole is sized.
      if (size > limit) throw tooLarge(offset);
    } else if (isScalar(node)) size += String(node.value).length;
    else if (isCollection(node)) for (const item of node.items) size += sizeOf(item);
    open.delete(node);
    sizes.set(node, size);
    return size;
  };
  try {
    if (sizeOf(doc.contents) <= limit) return undefined;
    // Many aliases, none too large alone: the first one is where to start.
    throw tooLarge([...targets.keys()][0]?.range?.[0] ?? 0);
  } catch (thrown) {
    if (thrown instanceof TooLarge) return thrown.problem;
    throw thrown;
  }
}
