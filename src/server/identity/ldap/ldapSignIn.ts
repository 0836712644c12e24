import type { AppContext } from '../../context.js';
import { classifyDirectoryError } from '../../adapters/ldap/directoryConnection.js';
import { detailBody, Invalid, Unavailable } from '../../errors.js';
import type { OutboundPolicy } from '../../outbound/guard.js';
import { outboundPolicyFor } from '../../outbound/policy.js';
import { issueAccess, type AccessAnswer } from '../accessIssuer.js';
import { verifySecondFactor } from '../otp.js';
import { invalidCredentials, invalidOtp } from '../signIn.js';
import { asCountedAttempt, failSignIn, succeedSignIn } from '../signInLockout.js';
import { bindServiceAccount, findDirectoryUser, mappedGroupIds, passwordMatches, type DirectoryUser } from './directoryUsers.js';
import { listLdapConfigurations, type StoredLdapConfiguration } from './ldapConfigurations.js';
import { companyForDirectorySignIn, splitQualifiedName } from './signInCompany.js';

type Credentials = { username: string; password: string; otp?: string };

export const ldapNotConfigured = () => new Invalid(detailBody('LDAP sign-in is not configured. An administrator can set it up under Settings → LDAP configuration.', 'ldap_not_configured'));

/** Whether any company has a directory users may sign in with (the login page offers LDAP then). */
export async function ldapSignInOffered(context: AppContext): Promise<boolean> {
  return (await listLdapConfigurations(context.db, context.keys.secretsKey, null)).some((configuration) => configuration.enabled);
}

/**
 * The directory that knows the user and accepts the password, or null. Unreachable directories are skipped, then
 * reported. A name with a domain (`alice@corp.example`, `CORP\alice`) is looked up as typed (a filter on
 * userPrincipalName finds it so), then as the bare account name.
 */
async function authenticate(configurations: StoredLdapConfiguration[], credentials: Credentials, outbound: OutboundPolicy): Promise<{ configuration: StoredLdapConfiguration; user: DirectoryUser } | null> {
  const unreachable: string[] = [];
  const names = [...new Set([credentials.username, splitQualifiedName(credentials.username).account])];
  for (const configuration of configurations) {
    try {
      const client = await bindServiceAccount(configuration, outbound);
      let user: DirectoryUser | null = null;
      try {
        for (const name of names) user ??= await findDirectoryUser(client, configuration, name);
      } finally {
        await client.unbind().catch(() => undefined);
      }
      if (user && (await passwordMatches(configuration, user.dn, credentials.password, outbound))) return { configuration, user };
    } catch (error) {
      unreachable.push(`${configuration.name}: ${classifyDirectoryError(error, configuration.url).detail}`);
    }
  }
  if (unreachable.length === configurations.length) {
    throw new Unavailable(detailBody('The directory cannot be reached right now; try again later or sign in with a password.', 'ldap_unavailable'));
  }
  return null;
}

/**
 * Creates the directory user on first sign-in, or refreshes their names, address and groups. A local (password)
 * account of the same name, or a user of another company, is never taken over: null then.
 */
async function provisionUser(context: AppContext, configuration: StoredLdapConfiguration, user: DirectoryUser): Promise<{ id: number; otp_secret: string | null; active: boolean } | null> {
  return context.db.transaction(async (transaction) => {
    const [existing] = await transaction.query<{ id: number; company_id: number; is_ldap: boolean; is_active: boolean; otp_secret: string | null }>(
      'select id, company_id, is_ldap, is_active, otp_secret from users where lower(username) = lower($1) for update', [user.username],
    );
    if (existing && (!existing.is_ldap || existing.company_id !== configuration.company_id)) return null;
    // The directory owns the password and its expiry: Cartograph's expiry period restarts at every directory sign-in.
    const [row] = existing
      ? await transaction.query<{ id: number }>('update users set email = $2, first_name = $3, last_name = $4, password_changed_at = now(), updated_at = now() where id = $1 returning id', [existing.id, user.email, user.firstName, user.lastName])
      : await transaction.query<{ id: number }>(
        `insert into users (company_id, username, email, first_name, last_name, password_hash, is_ldap) values ($1, $2, $3, $4, $5, null, true) returning id`,
        [configuration.company_id, user.username, user.email, user.firstName, user.lastName],
      );
    // Groups follow the directory: exactly the mapped groups that still exist in the configuration's company.
    const groupIds = mappedGroupIds(configuration, user);
    await transaction.query('delete from user_groups where user_id = $1', [row.id]);
    await transaction.query(
      'insert into user_groups (user_id, group_id) select $1, id from groups where company_id = $2 and id = any($3::int[])', [row.id, configuration.company_id, groupIds],
    );
    return { id: row.id, otp_secret: existing?.otp_secret ?? null, active: existing?.is_active ?? true };
  });
}

/**
 * `POST /api/token/ldap`: the directories of one company check the password (signInCompany.ts says which); lockout,
 * one-time passwords and answers as for passwords. A name no directory may be asked about is a failed sign-in like
 * any other, so the answer does not tell whether, or where, the name exists.
 */
export async function signInWithLdap(context: AppContext, credentials: Credentials, sourceIp: string): Promise<AccessAnswer | { otp_required: true }> {
  const enabled = (await listLdapConfigurations(context.db, context.keys.secretsKey, null)).filter((configuration) => configuration.enabled);
  if (!enabled.length) throw ldapNotConfigured();
  return asCountedAttempt(context, credentials.username, sourceIp, async (attempt) => {
    const companyId = await companyForDirectorySignIn(context.db, credentials.username, [...new Set(enabled.map((configuration) => configuration.company_id))]);
    const configurations = enabled.filter((configuration) => configuration.company_id === companyId);
    // The directories are the chosen company's, so its outbound policy holds for them.
    const found = configurations.length && companyId !== null ? await authenticate(configurations, credentials, await outboundPolicyFor(context.db, context.config, companyId)) : null;
    const user = found && (await provisionUser(context, found.configuration, found.user));
    const [company] = user ? await context.db.query<{ is_active: boolean }>('select is_active from companies where id = $1', [found!.configuration.company_id]) : [];
    // The console sends a refused LDAP sign-in once more (spec §7): the same attempt again counts once toward lockout.
    if (!found || !user || !user.active || !company?.is_active) return failSignIn(context, attempt, invalidCredentials, `password:${credentials.password}`);
    if (user.otp_secret) {
      if (!credentials.otp) return { otp_required: true as const };
      if (!(await verifySecondFactor(context.db, context.keys.secretsKey, { id: user.id, otp_secret: user.otp_secret }, credentials.otp))) return failSignIn(context, attempt, invalidOtp, `otp:${credentials.otp}`);
    }
    await succeedSignIn(context, attempt);
    return issueAccess(context, user.id);
  });
}
