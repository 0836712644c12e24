import type { Queryable } from '../db/database.js';
import { collectSecretFields } from '../adapters/catalogue.js';
import { openSecrets } from '../auth/secretFields.js';
import { secretRuleOf, type SecretRule } from '../auth/secretRule.js';
import { schemaById } from '../http/validators.js';
import { parameterSchemaOf } from './actionTypes.js';

export const actionKind = 'cartograph:entities/action';

export type ActionScope = { entity: string; query?: string; saved_query?: number; only_new?: boolean };
export type ActionDocument = {
  name: string; description?: string; enabled?: boolean; trigger: 'manual' | 'discovery' | 'schedule'; cron?: string; timezone?: string;
  scope: ActionScope; type: string; parameters: Record<string, unknown>;
  /** Who last saved the action (sealedDocuments.ts): its runs expand the saved queries this user may read. */
  owner_id?: number;
};

/** The parameters of a type marked `x-secret` (sealed at rest, answered masked). */
export const secretParametersOf = (type: string): Set<string> => collectSecretFields(schemaById(parameterSchemaOf(type)));

/** A type's secret parameters and the ones saying where they go (a webhook's URL): see secretRule.ts. */
export const secretRuleOfParameters = (type: string): SecretRule => secretRuleOf(schemaById(parameterSchemaOf(type)));

export async function loadAction(db: Queryable, companyId: number, id: number): Promise<{ id: number; document: ActionDocument } | null> {
  const [row] = await db.query<{ id: number; document: ActionDocument }>('select id, document from resources where kind = $1 and company_id = $2 and id = $3', [actionKind, companyId, id]);
  return row ?? null;
}

/** The action's parameters with secrets opened, for its runner only. */
export const openParameters = (secretsKey: Buffer, action: ActionDocument) => openSecrets(secretsKey, action.parameters, secretParametersOf(action.type));
