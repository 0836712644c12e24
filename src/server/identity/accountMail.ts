import { outboundPolicyFor } from '../outbound/policy.js';
import { logSystemEvent } from '../activities/activityLog.js';
import type { CoreContext } from '../context.js';
import type { JobSend, QueueWorker } from '../jobs/queueWorkers.js';
import { loadSmtpSettings, sendCompanyMail } from '../outbound/smtp.js';

export const accountMailQueue = 'account-mail';

/** What an administrator did to someone's account that the person should hear of from Cartograph itself. */
export type AccountMailKind = 'account_created' | 'password_changed';
export type AccountMailJob = { companyId: number; userId: number; kind: AccountMailKind; by: string; at: string };

/**
 * Queues the notice to the user, when they have an e-mail address; whether the company has SMTP is checked when it
 * is sent. The request that made the change never waits for a mail server.
 */
export async function queueAccountMail(send: JobSend, job: Omit<AccountMailJob, 'at'> & { email: string }): Promise<void> {
  if (!job.email.trim()) return;
  const { email: _email, ...data } = job;
  await send(accountMailQueue, { ...data, at: new Date().toISOString() } satisfies AccountMailJob, { retryLimit: 0 });
}

// The password is never in these mails: an administrator chose it and hands it over themselves, as before.
const notices: Record<AccountMailKind, (user: { username: string; name: string; company: string }, by: string, at: string) => { subject: string; text: string }> = {
  account_created: (user, by) => ({
    subject: 'Your Cartograph account',
    text: [
      `Hello ${user.name},`,
      `${by} created a Cartograph account for you in ${user.company}. Your username is ${user.username}.`,
      'Your administrator gives you your password: Cartograph never sends passwords by e-mail.',
    ].join('\n\n'),
  }),
  password_changed: (user, by, at) => ({
    subject: 'Your Cartograph password was changed',
    text: [
      `Hello ${user.name},`,
      `${by} changed the password of your Cartograph account ${user.username} (${user.company}) at ${at}.`,
      'Your administrator gives you the new password: Cartograph never sends passwords by e-mail. If you did not expect this change, tell your administrator.',
    ].join('\n\n'),
  }),
};

/** Sends one notice through the company's SMTP settings; without SMTP, or once the address is gone, there is nothing to send. */
export async function sendAccountMail(context: CoreContext, job: AccountMailJob): Promise<boolean> {
  const { db } = context;
  const [user] = await db.query<{ username: string; email: string; first_name: string; last_name: string; company: string }>(
    'select u.username, u.email, u.first_name, u.last_name, c.name as company from users u join companies c on c.id = u.company_id where u.id = $1 and u.company_id = $2',
    [job.userId, job.companyId],
  );
  if (!user?.email) return false;
  const smtp = await loadSmtpSettings(db, context.keys.secretsKey, job.companyId);
  if (!smtp.enabled || !smtp.host || !smtp.from) return false;
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username;
  const notice = notices[job.kind]({ username: user.username, name, company: user.company }, job.by, job.at);
  try {
    await sendCompanyMail(db, context.keys.secretsKey, job.companyId, { to: [user.email], ...notice }, await outboundPolicyFor(db, context.config, job.companyId));
    return true;
  } catch (error) {
    // The change is made; only its notice is lost. Administrators see why in the system log.
    const reason = error instanceof Error ? error.message : String(error);
    await logSystemEvent(db, 'warning', 'account_mail_failed', `The ${job.kind.replace('_', ' ')} notice to user ${user.username} could not be sent: ${reason}`.slice(0, 2000), {
      company_id: job.companyId, user_id: job.userId,
    });
    return false;
  }
}

export const accountMailQueueWorkers: QueueWorker[] = [
  { queue: accountMailQueue, handle: async (context, data) => void (await sendAccountMail(context, data as AccountMailJob)) },
];
