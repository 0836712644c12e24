import { loadOutboundPolicyDocument, outboundPolicyFor, outboundPolicyKind, type OutboundPolicyDocument } from '../../outbound/policy.js';
import { saveSettingsDocument } from '../../settings/settingsStore.js';
import { activityForwarderOf } from '../../activities/activityForwarder.js';
import { loadSyslogSettings, saveSyslogSettings, syslogTargetOf, type SyslogSettings } from '../../activities/syslogSettings.js';
import type { AppContext } from '../../context.js';
import { loadSmtpSettings, maskSmtpSettings, saveSmtpSettings, sendMail, type SmtpSettings } from '../../outbound/smtp.js';
import { sendSyslog } from '../../outbound/syslog.js';
import { detailError, fieldError, requireProvider } from '../errors.js';
import { callerOf, type RouteCatalogue } from '../routes.js';

const failureText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** A switched-on configuration must say where to send: otherwise saving it would only fail later, silently. */
function requireDestination(settings: { enabled: boolean; host: string }, extra: Record<string, string> = {}): void {
  if (!settings.enabled) return;
  if (!settings.host.trim()) throw fieldError('host', 'This field is required when the configuration is enabled.');
  for (const [field, value] of Object.entries(extra)) if (!value.trim()) throw fieldError(field, 'This field is required when the configuration is enabled.');
}

/**
 * The SMTP and syslog configuration pages (one document per company each), with their test buttons: a test e-mail
 * through the saved SMTP settings, a test event to the saved syslog receiver. A failed test answers the server's
 * own words and changes nothing.
 */
export function registerOutboundSettingsRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  const secretsKey = context.keys.secretsKey;
  routes.add({
    method: 'GET', url: '/configurations/smtp-configuration', name: 'smtp_configuration.read', summary: 'The mail server reports, actions and notifications send through (password masked)',
    access: 'configurations.view_smtpconfiguration',
    handler: async (request) => maskSmtpSettings(await loadSmtpSettings(db, secretsKey, callerOf(request).companyId)),
  });
  routes.add({
    method: 'PUT', url: '/configurations/smtp-configuration', name: 'smtp_configuration.update', summary: 'Change the mail server (a masked password keeps the stored one)',
    access: 'configurations.change_smtpconfiguration', body: 'cartograph:settings/smtp-configuration',
    handler: async (request) => {
      const submitted = request.body as SmtpSettings;
      const settings = { ...submitted, host: submitted.host.trim(), from: submitted.from.trim() };
      requireDestination(settings, { from: settings.from });
      return saveSmtpSettings(db, secretsKey, callerOf(request).companyId, settings);
    },
  });
  routes.add({
    method: 'POST', url: '/configurations/smtp-configuration/test', name: 'smtp_configuration.test', summary: 'Send a test e-mail through the saved mail server',
    access: 'configurations.change_smtpconfiguration', body: 'cartograph:api/mail-test',
    handler: async (request) => {
      const caller = callerOf(request);
      const settings = await loadSmtpSettings(db, secretsKey, caller.companyId);
      if (!settings.host || !settings.from) throw detailError(400, 'Save a host and a sender address first.', 'smtp_not_configured');
      const { to } = request.body as { to: string };
      try {
        const receipt = await sendMail(settings, {
          to: [to], subject: 'Cartograph test e-mail',
          text: `This is a test e-mail from Cartograph, sent by ${caller.username} to check the SMTP configuration.\n\nIf you can read this, reports and notifications can reach you.`,
        }, await outboundPolicyFor(db, context.config, caller.companyId));
        if (!receipt.accepted.length) throw new Error(`The server did not accept ${to}.`);
        return { sent: true, to, message_id: receipt.messageId };
      } catch (error) {
        throw detailError(400, `The test e-mail could not be sent: ${failureText(error)}`, 'smtp_test_failed');
      }
    },
  });

  // The outbound policy belongs to the installation: every company reads it, only the provider company changes it.
  routes.add({
    method: 'GET', url: '/configurations/outbound-policy', name: 'outbound_policy.read', summary: 'Where outbound calls may go: whether other companies may reach private addresses, and whether this installation allows loopback',
    access: 'configurations.view_advancedconfiguration',
    handler: async () => ({ ...(await loadOutboundPolicyDocument(db)), loopback_allowed: context.config.outboundAllowLoopback }),
  });
  routes.add({
    method: 'PUT', url: '/configurations/outbound-policy', name: 'outbound_policy.update', summary: 'Change whether other companies may reach private addresses (provider company only)',
    access: 'configurations.change_advancedconfiguration', body: 'cartograph:settings/outbound-policy',
    handler: async (request) => {
      const caller = callerOf(request);
      requireProvider(caller, 'Where outbound calls may go is the installation\'s policy: only the provider company sets it.');
      const document: OutboundPolicyDocument = { tenants_reach_private_ranges: (request.body as OutboundPolicyDocument).tenants_reach_private_ranges };
      await saveSettingsDocument(db, caller.companyId, outboundPolicyKind, document);
      return { ...document, loopback_allowed: context.config.outboundAllowLoopback };
    },
  });

  routes.add({
    method: 'GET', url: '/configurations/syslog-configuration', name: 'syslog_configuration.read', summary: 'Where activities are forwarded as syslog',
    access: 'configurations.view_syslogconfiguration',
    handler: async (request) => loadSyslogSettings(db, callerOf(request).companyId),
  });
  routes.add({
    method: 'PUT', url: '/configurations/syslog-configuration', name: 'syslog_configuration.update', summary: 'Change where activities are forwarded',
    access: 'configurations.change_syslogconfiguration', body: 'cartograph:settings/syslog-configuration',
    handler: async (request) => {
      const settings = request.body as SyslogSettings;
      requireDestination(settings);
      const companyId = callerOf(request).companyId;
      const saved = await saveSyslogSettings(db, companyId, settings);
      await activityForwarderOf(db)?.refresh(companyId);
      return saved;
    },
  });
  routes.add({
    method: 'POST', url: '/configurations/syslog-configuration/test', name: 'syslog_configuration.test', summary: 'Send a test event to the saved syslog receiver',
    access: 'configurations.change_syslogconfiguration',
    handler: async (request) => {
      const caller = callerOf(request);
      const settings = await loadSyslogSettings(db, caller.companyId);
      if (!settings.host) throw detailError(400, 'Save the receiver\'s host first.', 'syslog_not_configured');
      try {
        await sendSyslog(syslogTargetOf(settings), [{
          severity: 6, eventId: 'syslog.test', message: `Cartograph syslog test sent by ${caller.username}`,
          fields: { user: caller.username, company_id: caller.companyId },
        }], await outboundPolicyFor(db, context.config, caller.companyId));
        return { sent: true, transport: settings.transport, format: settings.format };
      } catch (error) {
        throw detailError(400, `The test event could not be sent: ${failureText(error)}`, 'syslog_test_failed');
      }
    },
  });
}
