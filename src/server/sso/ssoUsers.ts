import type { Queryable } from '../db/database.js';
import type { GroupMapping, SsoSettings } from './ssoSettings.js';

export type IdTokenClaims = Record<string, unknown> & { sub: string };

/** A sign-in the provider vouched for but Cartograph refuses (inactive user, username taken); the text is shown. */
export class SsoRefusal extends Error {}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The values of the group claim: a list of strings, or one string. */
export function claimedGroups(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : [];
}

/** The Cartograph group names the provider's groups map to. Before: ["ops", "x"] with ops → Analysts; after: ["Analysts"]. */
export function mappedGroupNames(groups: string[], mappings: GroupMapping[]): string[] {
  return [...new Set(mappings.filter((mapping) => groups.includes(mapping.claim_value)).map((mapping) => mapping.group))];
}

/**
 * The Cartograph user of a provider subject: created on the first sign-in, its name, e-mail and groups updated at
 * every sign-in. Runs inside the caller's transaction.
 */
export async function provisionSsoUser(db: Queryable, companyId: number, settings: SsoSettings, claims: IdTokenClaims): Promise<number> {
  const email = text(claims.email).slice(0, 254);
  const firstName = text(claims.given_name).slice(0, 150);
  const lastName = text(claims.family_name).slice(0, 150);
  // The provider vouches for the credential at each sign-in, so the password-expiry rule is met afresh.
  const [existing] = await db.query<{ id: number; is_active: boolean }>(
    `update users set email = $3, first_name = $4, last_name = $5, password_changed_at = now(), password_expired = false, updated_at = now()
      where company_id = $1 and sso_subject = $2 returning id, is_active`,
    [companyId, claims.sub, email, firstName, lastName],
  );
  let userId = existing?.id;
  if (existing && !existing.is_active) throw new SsoRefusal('Your Cartograph account is deactivated. Ask an administrator to activate it.');
  if (!userId) {
    const username = (text(claims[settings.username_claim]) || email || claims.sub).slice(0, 150);
    const [taken] = await db.query('select 1 from users where lower(username) = lower($1)', [username]);
    if (taken) throw new SsoRefusal(`The username "${username}" already belongs to another Cartograph account. Ask an administrator to rename one of them.`);
    const [created] = await db.query<{ id: number }>(
      `insert into users (company_id, username, email, first_name, last_name, password_hash, sso_subject)
       values ($1, $2, $3, $4, $5, null, $6) returning id`,
      [companyId, username, email, firstName, lastName, claims.sub],
    );
    userId = created!.id;
  }
  const groupNames = mappedGroupNames(claimedGroups(claims, settings.group_claim), settings.group_mappings);
  await db.query('delete from user_groups where user_id = $1', [userId]);
  if (groupNames.length) {
    await db.query(
      `insert into user_groups (user_id, group_id)
       select $1, g.id from groups g where g.company_id = $2 and lower(g.name) = any(select lower(name) from unnest($3::text[]) as name)`,
      [userId, companyId, groupNames],
    );
  }
  return userId;
}
