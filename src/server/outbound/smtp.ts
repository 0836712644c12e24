import nodemailer from 'nodemailer';
import type { Readable } from 'node:stream';
import type { Queryable } from '../db/database.js';
import { keepUnchangedSecrets, maskSecrets, openSecrets, sealSecrets } from '../auth/secretFields.js';
import { secretRuleOf } from '../auth/secretRule.js';
import { schemaById } from '../http/validators.js';
import { loadSettingsDocument, saveSettingsDocument } from '../settings/settingsStore.js';
import { checkDestination, type OutboundPolicy } from './guard.js';

/** The SMTP configuration page, one document per company; reports, actions and notifications send through it. */
export const smtpSettingsKind = 'cartograph:settings/smtp-configuration';

export type SmtpSecurity = 'none' | 'starttls' | 'tls';

export type SmtpSettings = {
  enabled: boolean; host: string; port: number; security: SmtpSecurity;
  username: string; password: string; from: string;
  /** PEM of the CA that signed the server's certificate, when it is not a public one. */
  ca_certificate: string;
  verify_certificate: boolean;
};

export const defaultSmtpSettings: SmtpSettings = {
  enabled: false, host: '', port: 587, security: 'starttls', username: '', password: '', from: '', ca_certificate: '', verify_certificate: true,
};

// The password, held to the server it was saved for (host, port and security: see secretRule.ts).
const smtpSecretRule = secretRuleOf(schemaById(smtpSettingsKind));
const smtpSecretFields = smtpSecretRule.secretFields;

/** The company's SMTP settings with the password opened, for sending. Never log or answer the result. */
export async function loadSmtpSettings(db: Queryable, secretsKey: Buffer, companyId: number): Promise<SmtpSettings> {
  const stored = await loadSettingsDocument(db, companyId, smtpSettingsKind, defaultSmtpSettings);
  return openSecrets(secretsKey, stored, smtpSecretFields) as SmtpSettings;
}

/** The settings as the API answers them: the password masked. */
export function maskSmtpSettings(settings: SmtpSettings): SmtpSettings {
  return maskSecrets(settings, smtpSecretFields) as SmtpSettings;
}

/** Stores a page's answer: a password answered masked keeps the stored one, a new one is sealed. */
export async function saveSmtpSettings(db: Queryable, secretsKey: Buffer, companyId: number, submitted: SmtpSettings): Promise<SmtpSettings> {
  const stored = await loadSmtpSettings(db, secretsKey, companyId);
  const document = { ...defaultSmtpSettings, ...keepUnchangedSecrets(submitted, stored, smtpSecretRule) } as SmtpSettings;
  await saveSettingsDocument(db, companyId, smtpSettingsKind, sealSecrets(secretsKey, document, smtpSecretFields));
  return maskSmtpSettings(document);
}

export type MailAttachment = { filename: string; content: Buffer | Readable | string; contentType?: string };

export type MailMessage = { to: string[]; subject: string; text: string; html?: string; attachments?: MailAttachment[] };

export type MailReceipt = { messageId: string; accepted: string[]; rejected: string[] };

/** Thrown when a company that has not configured (or has switched off) SMTP asks to send. */
export class MailNotConfiguredError extends Error {
  constructor() {
    super('E-mail is not configured: an administrator sets up SMTP under Settings → SMTP configuration.');
  }
}

// Bounded waits: a server that accepts the connection and then says nothing must not hold a report or an action.
// Connecting and the greeting get this many seconds each (CARTOGRAPH_SMTP_TIMEOUT_SECONDS); a conversation that falls
// silent later (a large attachment being taken in) gets four times as long.
export const defaultSmtpTimeoutSeconds = 15;

/** `address` is where the guard let us connect; the certificate is still checked against the configured name. */
function transportOf(settings: SmtpSettings, address: string, timeoutSeconds: number) {
  return nodemailer.createTransport({
    host: address,
    servername: settings.host,
    port: settings.port,
    secure: settings.security === 'tls',
    requireTLS: settings.security === 'starttls',
    ignoreTLS: settings.security === 'none',
    auth: settings.username ? { user: settings.username, pass: settings.password } : undefined,
    tls: { rejectUnauthorized: settings.verify_certificate, ...(settings.ca_certificate ? { ca: settings.ca_certificate } : {}) },
    connectionTimeout: timeoutSeconds * 1000,
    greetingTimeout: timeoutSeconds * 1000,
    socketTimeout: 4 * timeoutSeconds * 1000,
  });
}

/**
 * Sends one message through the given settings; the server's refusal is thrown with its own words, and a server that
 * stops answering with where and how long it was waited for (nodemailer alone says "Greeting never received").
 */
export async function sendMail(settings: SmtpSettings, message: MailMessage, outbound: OutboundPolicy, timeoutSeconds = defaultSmtpTimeoutSeconds): Promise<MailReceipt> {
  // The outbound guard resolves and judges the server; nodemailer connects to the address it checked.
  const address = await checkDestination(settings.host, outbound);
  const transport = transportOf(settings, address, timeoutSeconds);
  try {
    const info = await transport.sendMail({ from: settings.from, ...message, to: message.to.join(', ') });
    const addresses = (list: unknown) => (Array.isArray(list) ? list.map((entry) => (typeof entry === 'string' ? entry : String((entry as { address?: string }).address))) : []);
    return { messageId: info.messageId, accepted: addresses(info.accepted), rejected: addresses(info.rejected) };
  } catch (error) {
    if ((error as { code?: string }).code === 'ETIMEDOUT') {
      throw new Error(`The SMTP server ${settings.host}:${settings.port} did not answer within ${timeoutSeconds} s (${(error as Error).message}).`, { cause: error });
    }
    throw error;
  } finally {
    transport.close();
  }
}

/** Sends through the company's SMTP configuration, or throws MailNotConfiguredError. */
export async function sendCompanyMail(db: Queryable, secretsKey: Buffer, companyId: number, message: MailMessage, outbound: OutboundPolicy, timeoutSeconds = defaultSmtpTimeoutSeconds): Promise<MailReceipt> {
  const settings = await loadSmtpSettings(db, secretsKey, companyId);
  if (!settings.enabled || !settings.host || !settings.from) throw new MailNotConfiguredError();
  return sendMail(settings, message, outbound, timeoutSeconds);
}
