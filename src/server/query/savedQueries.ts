import { parseQuery, type QueryNode } from '../../core/query/index.js';
import { fieldError } from '../http/errors.js';

/**
 * Replaces every `Query is <id>` with the saved query's own tree, recursively, refusing cycles.
 * Before: `Query is 3 AND NOT Groups = edr` with 3 = `OS.Type = Windows`; after: `OS.Type = Windows AND NOT Groups = edr`.
 */
export async function expandSavedQueries(node: QueryNode, loadText: (id: number) => Promise<string | null>, path: number[] = []): Promise<QueryNode> {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { ...node, left: await expandSavedQueries(node.left, loadText, path), right: await expandSavedQueries(node.right, loadText, path) };
    case 'not':
      return { ...node, operand: await expandSavedQueries(node.operand, loadText, path) };
    case 'saved-query': {
      if (path.includes(node.id)) throw fieldError('query', `Saved query ${node.id} refers to itself (${[...path, node.id].join(' → ')}).`);
      const text = await loadText(node.id);
      if (text === null) throw fieldError('query', `Saved query ${node.id} does not exist.`);
      return expandSavedQueries(parseQuery(text), loadText, [...path, node.id]);
    }
    default:
      return node;
  }
}
