import type { Queryable } from '../db/database.js';
import { loadSettingsDocument } from '../settings/settingsStore.js';

export const actionSettingsKind = 'cartograph:settings/action-center';

/** The action-center settings page as stored (`cartograph:settings/action-center`). */
export type ActionSettings = { concurrency: number; target_timeout_seconds: number; retries: number; history_days: number; allowed_destinations: string[] };

export const defaultActionSettings: ActionSettings = { concurrency: 10, target_timeout_seconds: 30, retries: 2, history_days: 90, allowed_destinations: [] };

export const loadActionSettings = (db: Queryable, companyId: number): Promise<ActionSettings> => loadSettingsDocument(db, companyId, actionSettingsKind, defaultActionSettings);
