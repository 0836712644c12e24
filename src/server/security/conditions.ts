import { parseQuery, QuerySyntaxError, type QueryNode } from '../../core/query/index.js';
import type { Queryable } from '../db/database.js';
import { DomainError, Invalid } from '../errors.js';
import { fieldProblem, positionOf, searchFieldsOf } from '../query/queryFields.js';
import { expandSavedQueries } from '../query/savedQueries.js';
import { loadSavedQueryText, type QueryReader } from '../query/savedQueryStore.js';

// Profiles and policies are conditions of the query language over an inventory: devices (profiles, and policies by
// default) or users (policies whose `inventory` says so). They are checked before they are saved: the text parses,
// its saved queries exist, and every field it names is one a query of that inventory can read (its own fields,
// `Specifics.<adapter>.<name>`, and the fields it reaches through the snapshot's relations: a device's software,
// vulnerabilities and services). An error says where, as the query bar's errors do.

/** The fields scoring writes: a profile or policy reading them would read its own output. */
export const scoreFields = new Set(['SecurityScore', 'FailedPolicies']);

/** Whether a query of `entity` can read `field` (null) or why not. */
function conditionFieldProblem(entity: string, field: string): string | null {
  if (scoreFields.has(field)) return `${field} is written by the scoring itself; a profile or policy cannot read it.`;
  return fieldProblem(entity, field);
}

function leafFields(node: QueryNode, entity: string, into: string[] = []): string[] {
  if (node.kind === 'and' || node.kind === 'or') return leafFields(node.right, entity, leafFields(node.left, entity, into));
  if (node.kind === 'not') return leafFields(node.operand, entity, into);
  if (node.kind === 'free-text') into.push(...searchFieldsOf(entity));
  else if (node.kind !== 'saved-query') into.push(node.field);
  return into;
}

/** The fields a condition over `entity` names (saved queries expanded), each once, in the order written. */
export const fieldsOf = (node: QueryNode, entity = 'device'): string[] => [...new Set(leafFields(node, entity))];

/**
 * Checks a profile's or policy's condition over `entity`'s inventory; answers its tree (saved queries expanded).
 * Refusals are field errors on `field` with `position`: the character offset of the error, from 0.
 */
export async function checkCondition(db: Queryable, reader: QueryReader, text: string, field = 'query', entity = 'device'): Promise<QueryNode> {
  let tree: QueryNode;
  try {
    tree = await expandSavedQueries(parseQuery(text), (id) => loadSavedQueryText(db, reader, id));
  } catch (error) {
    if (error instanceof QuerySyntaxError) throw new Invalid({ [field]: [error.message], position: [String(error.position)] });
    if (error instanceof DomainError && 'query' in error.body) throw new Invalid({ [field]: (error.body as Record<string, string[]>).query });
    throw error;
  }
  for (const name of fieldsOf(tree, entity)) {
    const problem = conditionFieldProblem(entity, name);
    if (!problem) continue;
    const position = positionOf(text, name);
    throw new Invalid({ [field]: [position === null ? `${problem} (in a saved query it uses)` : `${problem} (at character ${position + 1})`], ...(position === null ? {} : { position: [String(position)] }) });
  }
  return tree;
}
