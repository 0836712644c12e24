import type { Queryable } from '../db/database.js';
import { loadSettingsDocument, saveSettingsDocument } from '../settings/settingsStore.js';
import { fieldError } from '../errors.js';

/** How long a company's API tokens may live, one document per company (`cartograph:settings/api-tokens`). */
export const apiTokenSettingsKind = 'cartograph:settings/api-tokens';

/** `maximum_lifetime_days` 0 sets no maximum. */
export type ApiTokenSettings = { maximum_lifetime_days: number };

export const defaultApiTokenSettings: ApiTokenSettings = { maximum_lifetime_days: 0 };

/** A token made without a lifetime lives this long (or the company's maximum, when shorter). */
export const defaultTokenLifetimeDays = 90;

export const loadApiTokenSettings = (db: Queryable, companyId: number): Promise<ApiTokenSettings> =>
  loadSettingsDocument(db, companyId, apiTokenSettingsKind, defaultApiTokenSettings);

export async function saveApiTokenSettings(db: Queryable, companyId: number, settings: ApiTokenSettings): Promise<ApiTokenSettings> {
  const document = { ...defaultApiTokenSettings, ...settings };
  await saveSettingsDocument(db, companyId, apiTokenSettingsKind, document);
  return document;
}

export type TokenLifetimeRequest = { expires_in_days?: number; expires_at?: string; never_expires?: boolean };

const dayMs = 24 * 60 * 60 * 1000;

/**
 * When a new token stops working (null: never), from what its creator asked for and the company's maximum.
 * Refuses, as a field error on the field that asked, two answers at once, an end in the past, and anything past
 * the maximum — including "never", which a maximum rules out.
 */
export function tokenExpiry(request: TokenLifetimeRequest, settings: ApiTokenSettings, now = new Date()): Date | null {
  const given = (['expires_in_days', 'expires_at', 'never_expires'] as const).filter((field) => request[field] !== undefined && request[field] !== false);
  if (given.length > 1) throw fieldError(given[1]!, 'Give one lifetime: days, an end, or never.');
  const maximum = settings.maximum_lifetime_days;
  const limitMessage = `At most ${maximum} days in this company.`;
  if (request.never_expires) {
    if (maximum > 0) throw fieldError('never_expires', `Tokens must expire in this company, within ${maximum} days.`);
    return null;
  }
  if (request.expires_at !== undefined) {
    const end = new Date(request.expires_at);
    if (Number.isNaN(end.getTime())) throw fieldError('expires_at', 'Not a valid date and time.');
    if (end.getTime() <= now.getTime()) throw fieldError('expires_at', 'Choose a time in the future.');
    if (end.getTime() - now.getTime() > 3650 * dayMs) throw fieldError('expires_at', 'At most 3650 days ahead.');
    if (maximum > 0 && end.getTime() - now.getTime() > maximum * dayMs) throw fieldError('expires_at', limitMessage);
    return end;
  }
  if (request.expires_in_days !== undefined) {
    if (maximum > 0 && request.expires_in_days > maximum) throw fieldError('expires_in_days', limitMessage);
    return new Date(now.getTime() + request.expires_in_days * dayMs);
  }
  const days = maximum > 0 ? Math.min(defaultTokenLifetimeDays, maximum) : defaultTokenLifetimeDays;
  return new Date(now.getTime() + days * dayMs);
}
