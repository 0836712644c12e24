import { checkDestination, OutboundRefusedError, type OutboundPolicy } from '../../outbound/guard.js';
import { rootCertificates, type ConnectionOptions } from 'node:tls';
import { isIP } from 'node:net';
import { Client, ResultCodeError } from 'ldapts';
import { classifyNetworkError } from '../connectivity.js';
import type { ConnectivityResult } from '../engine.js';
import type { LdapSettings } from './settings.js';

type Failure = Extract<ConnectivityResult, { ok: false }>;

/** A failed directory operation, already classified so tests and the console can say what to fix. */
export class DirectoryError extends Error {
  constructor(readonly failure: Failure) {
    super(failure.detail);
  }
}

// LDAP result codes (RFC 4511 §4.1.9) that point at something the administrator can fix.
function classifyResultCode(error: ResultCodeError, target: string): Failure {
  const message = error.message.slice(0, 200);
  switch (error.code) {
    case 49:
      return { ok: false, reason: 'unauthorized', detail: `${target} rejected the bind user or password (LDAP 49 invalid credentials): ${message}` };
    case 50:
      return { ok: false, reason: 'forbidden', detail: `The bind user may not read here on ${target} (LDAP 50 insufficient access rights).` };
    case 8:
    case 13:
      return { ok: false, reason: 'tls', detail: `${target} requires an encrypted or signed connection (LDAP ${error.code}): choose ldaps or starttls.` };
    case 32:
      return { ok: false, reason: 'invalid_config', detail: `The base DN does not exist on ${target} (LDAP 32 no such object).` };
    case 34:
      return { ok: false, reason: 'invalid_config', detail: `A DN in the configuration is malformed (LDAP 34 invalid DN syntax): ${message}` };
    default:
      return { ok: false, reason: 'protocol', detail: `${target} answered LDAP error ${error.code}: ${message}` };
  }
}

/**
 * Classifies any error from a directory operation. ldapts reports its own timeouts as plain errors
 * ("Connection timeout", "BindRequest: Operation timed out"), so those are recognised by message.
 */
export function classifyDirectoryError(error: unknown, target: string): Failure {
  if (error instanceof DirectoryError) return error.failure;
  if (error instanceof ResultCodeError) return classifyResultCode(error, target);
  const message = error instanceof Error ? error.message : String(error);
  if (/Connection timeout|Operation timed out/i.test(message)) return { ok: false, reason: 'timeout', detail: `${target} did not answer in time.` };
  if (/before secure TLS connection/i.test(message)) {
    return { ok: false, reason: 'tls', detail: `${target} closed the connection during the TLS handshake: the port may not speak LDAPS (try starttls or plain on 389).` };
  }
  if (/filter/i.test(message)) return { ok: false, reason: 'invalid_config', detail: `An LDAP filter is not valid: ${message}` };
  return classifyNetworkError(error, target) as Failure;
}

function tlsOptionsFor(settings: LdapSettings, host: string): ConnectionOptions {
  return {
    rejectUnauthorized: settings.verifySsl,
    // A custom CA adds to the public authorities rather than replacing them.
    ca: settings.customCa ? [...rootCertificates, settings.customCa] : undefined,
    servername: isIP(host) ? undefined : host,
    minVersion: 'TLSv1.2',
  };
}

/** `ldaps://dc01.corp:636` for one configured host (IPv6 literals bracketed). */
export function directoryUrl(settings: LdapSettings, host: string): string {
  const name = isIP(host) === 6 ? `[${host}]` : host;
  return `${settings.security === 'ldaps' ? 'ldaps' : 'ldap'}://${name}:${settings.port}`;
}

async function bindTo(settings: LdapSettings, host: string, outbound: OutboundPolicy | undefined): Promise<Client> {
  const tlsOptions = tlsOptionsFor(settings, host);
  // Through the outbound guard, the client connects to the address it checked; TLS still verifies the host's name.
  let address = host;
  if (outbound) {
    try {
      address = await checkDestination(host, outbound);
    } catch (error) {
      throw new DirectoryError(error instanceof OutboundRefusedError ? { ok: false, reason: 'refused', detail: error.message } : classifyDirectoryError(error, `${host}:${settings.port}`));
    }
  }
  // ldapts speaks TLS from the first byte whenever tlsOptions is set, so plain and StartTLS must not pass it.
  const client = new Client({
    url: directoryUrl(settings, address), timeout: settings.timeoutMs, connectTimeout: settings.timeoutMs, strictDN: false,
    tlsOptions: settings.security === 'ldaps' ? tlsOptions : undefined,
  });
  try {
    if (settings.security === 'starttls') await client.startTLS(tlsOptions);
    await client.bind(settings.bindDn, settings.password);
    return client;
  } catch (error) {
    await client.unbind().catch(() => undefined);
    throw new DirectoryError(classifyDirectoryError(error, `${host}:${settings.port}`));
  }
}

// Network failures move on to the next host; a refused bind would be refused by every replica alike.
const tryNextHost = new Set(['dns', 'refused', 'timeout', 'tls', 'protocol']);

/**
 * A bound client on the first configured host that answers. Throws DirectoryError with the last host's
 * failure when none does, naming every host tried.
 */
export async function openDirectory(settings: LdapSettings, signal: AbortSignal, outbound?: OutboundPolicy): Promise<{ client: Client; host: string }> {
  const failures: string[] = [];
  let last: Failure | null = null;
  for (const host of settings.hosts) {
    if (signal.aborted) throw new DirectoryError({ ok: false, reason: 'timeout', detail: 'The fetch was cancelled.' });
    try {
      return { client: await bindTo(settings, host, outbound), host };
    } catch (error) {
      last = classifyDirectoryError(error, host);
      if (!tryNextHost.has(last.reason)) throw new DirectoryError(last);
      failures.push(last.detail);
    }
  }
  const detail = failures.length > 1 ? `No directory server answered: ${failures.join(' ')}` : failures[0];
  throw new DirectoryError({ ok: false, reason: last?.reason ?? 'protocol', detail: detail ?? 'No directory server is configured.' });
}
