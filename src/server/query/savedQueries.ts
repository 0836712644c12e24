import { parseQuery, type QueryNode } from '../../core/query/index.js';
import { fieldError } from '../errors.js';
import { maximumConditions } from './compileQuery.js';

// How deep `Query is <id>` may nest (a query naming a query naming a query...): deeper chains are refused before
// another saved query is read. The expanded tree is held to compileQuery.ts's `maximumConditions` as it grows, so a
// fan-out (each query naming the next twice) is refused after a handful of reads, not after building 2^n nodes.
export const maximumSavedQueryDepth = 10;

/** Counts every node of a tree, as compileQuery.ts counts them against `maximumConditions`. */
function sizeOf(node: QueryNode): number {
  switch (node.kind) {
    case 'and':
    case 'or':
      return 1 + sizeOf(node.left) + sizeOf(node.right);
    case 'not':
      return 1 + sizeOf(node.operand);
    default:
      return 1;
  }
}

type Expanded = { tree: QueryNode; size: number };

/**
 * Replaces every `Query is <id>` with the saved query's own tree, recursively, refusing cycles, chains deeper than
 * `maximumSavedQueryDepth` and trees larger than `maximumConditions`. Each id is read and expanded once per call
 * (later references share the first expansion). `loadText` answers null for a query that does not exist or that the
 * caller may not read: both are refused alike, so the refusal says nothing of another user's private queries.
 * Before: `Query is 3 AND NOT Groups = edr` with 3 = `OS.Type = Windows`; after: `OS.Type = Windows AND NOT Groups = edr`.
 */
export async function expandSavedQueries(node: QueryNode, loadText: (id: number) => Promise<string | null>, path: number[] = []): Promise<QueryNode> {
  const expandedById = new Map<number, Expanded>();
  const tooLarge = () => fieldError('query', `A query may hold at most ${maximumConditions} conditions (saved queries included).`);
  const expand = async (current: QueryNode, trail: number[]): Promise<Expanded> => {
    switch (current.kind) {
      case 'and':
      case 'or': {
        const left = await expand(current.left, trail);
        const right = await expand(current.right, trail);
        const size = 1 + left.size + right.size;
        if (size > maximumConditions) throw tooLarge();
        return { tree: { ...current, left: left.tree, right: right.tree }, size };
      }
      case 'not': {
        const operand = await expand(current.operand, trail);
        if (operand.size + 1 > maximumConditions) throw tooLarge();
        return { tree: { ...current, operand: operand.tree }, size: operand.size + 1 };
      }
      case 'saved-query': {
        if (trail.includes(current.id)) throw fieldError('query', `Saved query ${current.id} refers to itself (${[...trail, current.id].join(' → ')}).`);
        const known = expandedById.get(current.id);
        if (known) return known;
        if (trail.length >= maximumSavedQueryDepth) throw fieldError('query', `Saved queries may refer to each other at most ${maximumSavedQueryDepth} deep (${[...trail, current.id].join(' → ')}).`);
        const text = await loadText(current.id);
        if (text === null) throw fieldError('query', `Saved query ${current.id} does not exist.`);
        const parsed = parseQuery(text);
        if (sizeOf(parsed) > maximumConditions) throw tooLarge();
        const expanded = await expand(parsed, [...trail, current.id]);
        expandedById.set(current.id, expanded);
        return expanded;
      }
      default:
        return { tree: current, size: 1 };
    }
  };
  return (await expand(node, path)).tree;
}
