import { parseQuery, QuerySyntaxError, type QueryNode } from '../../core/query/index.js';
import { tokenize } from '../../core/query/lexer.js';
import type { Queryable } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { schemaById } from '../http/validators.js';
import { inventorySchemas } from '../inventory/indexedFields.js';
import { isSpecificField } from '../query/fieldColumns.js';
import { relationOfField, relationsOf } from '../query/relationConditions.js';
import { expandSavedQueries } from '../query/savedQueries.js';
import { loadSavedQueryText } from '../query/savedQueryStore.js';

// Profiles and policies are conditions of the query language over devices. They are checked before they are
// saved: the text parses, its saved queries exist, and every field it names is one a device query can read (its
// own fields, `Specifics.<adapter>.<name>`, and the software, vulnerability and service fields it reaches through
// the snapshot's relations). An error says where, as the query bar's errors do.

/** The fields scoring writes: a profile or policy reading them would read its own output. */
export const scoreFields = new Set(['SecurityScore', 'FailedPolicies']);

const propertiesOf = (entity: string) => new Set(Object.keys(schemaById(inventorySchemas[entity]).properties ?? {}));

/** Whether a device query can read `field` (null) or why not. */
function fieldProblem(field: string): string | null {
  if (scoreFields.has(field)) return `${field} is written by the scoring itself; a profile or policy cannot read it.`;
  if (isSpecificField(field)) return field.length > 'Specifics.'.length ? null : `"${field}" names no adapter field.`;
  const relation = relationOfField(relationsOf('device'), field);
  if (relation) {
    const rest = field.slice(relation.prefix.length);
    if (rest in relation.linkFields || (relation.related && propertiesOf(relation.related.entity).has(rest))) return null;
    return `Unknown field "${field}": ${relation.prefix.slice(0, -1)} has no field "${rest}".`;
  }
  return propertiesOf('device').has(field) ? null : `Unknown field "${field}".`;
}

function leafFields(node: QueryNode, into: string[] = []): string[] {
  if (node.kind === 'and' || node.kind === 'or') return leafFields(node.right, leafFields(node.left, into));
  if (node.kind === 'not') return leafFields(node.operand, into);
  if (node.kind !== 'saved-query') into.push(node.field);
  return into;
}

/** The fields a condition names (saved queries expanded), each once, in the order written. */
export const fieldsOf = (node: QueryNode): string[] => [...new Set(leafFields(node))];

/** Where `field` is first written in `text` (a field that comes from a saved query is not written there: null). */
function positionOf(text: string, field: string): number | null {
  try {
    return tokenize(text).find((token) => token.type === 'word' && token.text === field)?.position ?? null;
  } catch {
    return null;
  }
}

/**
 * Checks a profile's or policy's condition; answers its tree (saved queries expanded). Refusals are field errors
 * on `field` with `position`: the character offset of the error, from 0.
 */
export async function checkCondition(db: Queryable, companyId: number, text: string, field = 'query'): Promise<QueryNode> {
  let tree: QueryNode;
  try {
    tree = await expandSavedQueries(parseQuery(text), (id) => loadSavedQueryText(db, companyId, id));
  } catch (error) {
    if (error instanceof QuerySyntaxError) throw new HttpError(400, { [field]: [error.message], position: [String(error.position)] });
    if (error instanceof HttpError && 'query' in error.body) throw new HttpError(400, { [field]: (error.body as Record<string, string[]>).query });
    throw error;
  }
  for (const name of fieldsOf(tree)) {
    const problem = fieldProblem(name);
    if (!problem) continue;
    const position = positionOf(text, name);
    throw new HttpError(400, { [field]: [position === null ? `${problem} (in a saved query it uses)` : `${problem} (at character ${position + 1})`], ...(position === null ? {} : { position: [String(position)] }) });
  }
  return tree;
}
