// One Greenbone Management Protocol (GMP) connection: XML commands over TLS to gvmd (port 9390), each answered by one
// XML document. GMP has no framing: an answer ends when its root element closes, so the reader waits for that.
// The connection goes where the outbound guard checked, and TLS still verifies the configured host's name.
import { isIP } from 'node:net';
import { connect, rootCertificates, type TLSSocket } from 'node:tls';
import { checkDestination, type OutboundPolicy } from '../../outbound/guard.js';
import { classifyNetworkError } from '../connectivity.js';
import type { ConnectivityFailureReason } from '../engine.js';
import { parseXmlBody, XmlBodyError } from '../http/xmlBody.js';

export type GmpSettings = {
  host: string;
  port: number;
  username: string;
  password: string;
  verifySsl: boolean;
  customCa?: string;
  timeoutMs: number;
};

/** A GMP failure with the reason an administrator can act on. */
export class GmpFailure extends Error {
  constructor(
    readonly reason: ConnectivityFailureReason,
    message: string,
  ) {
    super(message);
  }
}

// The largest answer read: a page of 500 results with their NVT texts stays far below it.
const maximumAnswerBytes = 64 * 1024 * 1024;

/** `<credentials>` values and filter terms go inside XML: the five special characters are escaped. */
export function xmlText(value: string): string {
  return value.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[character]!);
}

/** True once `text` holds one whole XML document: its root element (after any `<?xml?>` prolog) has closed. */
export function isWholeDocument(text: string): boolean {
  const body = text.replace(/^\s*(<\?[\s\S]*?\?>\s*)?/, '');
  const root = /^<([A-Za-z_][\w.-]*)/.exec(body)?.[1];
  if (!root) return false;
  const trimmed = body.trimEnd();
  return trimmed.endsWith(`</${root}>`) || (trimmed.endsWith('/>') && trimmed.indexOf('>') === trimmed.length - 1);
}

export type GmpSession = {
  /** Sends one command and answers its response element (`<name>_response`), parsed; throws GmpFailure unless its status is 2xx. */
  command: (xml: string, responseName: string, listElements?: readonly string[]) => Promise<Record<string, unknown>>;
  close: () => void;
};

function secureSocket(settings: GmpSettings, address: string): Promise<TLSSocket> {
  const target = `${settings.host}:${settings.port}`;
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: address,
      port: settings.port,
      servername: isIP(settings.host) ? undefined : settings.host,
      rejectUnauthorized: settings.verifySsl,
      // A custom CA adds to the public authorities rather than replacing them.
      ca: settings.customCa ? [...rootCertificates, settings.customCa] : undefined,
      minVersion: 'TLSv1.2',
      timeout: settings.timeoutMs,
    });
    const fail = (error: unknown) => {
      socket.destroy();
      const failure = classifyNetworkError(error, target) as { reason: ConnectivityFailureReason; detail: string };
      reject(new GmpFailure(failure.reason, failure.detail));
    };
    socket.once('secureConnect', () => {
      socket.removeAllListeners('error');
      socket.removeAllListeners('timeout');
      resolve(socket);
    });
    socket.once('error', fail);
    socket.once('timeout', () => fail(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
  });
}

/** Reads the next whole answer from the socket, bounded in size and time. */
function readAnswer(socket: TLSSocket, settings: GmpSettings, signal: AbortSignal): Promise<string> {
  const target = `${settings.host}:${settings.port}`;
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = (error: GmpFailure | null) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('end', onEnd);
      signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(text);
    };
    const onData = (chunk: string) => {
      text += chunk;
      if (text.length > maximumAnswerBytes) finish(new GmpFailure('protocol', `${target} sent an answer over ${maximumAnswerBytes} bytes`));
      else if (isWholeDocument(text)) finish(null);
    };
    const onError = (error: Error) => finish(new GmpFailure('protocol', `${target}: ${error.message}`));
    const onEnd = () => finish(new GmpFailure('protocol', `${target} closed the connection before its answer was complete`));
    const onAbort = () => finish(new GmpFailure('timeout', 'The fetch was cancelled.'));
    const timer = setTimeout(() => finish(new GmpFailure('timeout', `${target} did not answer within ${settings.timeoutMs / 1000} s`)), settings.timeoutMs);
    socket.on('data', onData);
    socket.once('error', onError);
    socket.once('end', onEnd);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Connects through the outbound guard, completes TLS and authenticates (GMP `authenticate`); answers the session.
 * Before: `{host: 'gvm.corp', port: 9390, username, password}`; after: a session whose `command` sends `<get_assets .../>`.
 */
export async function openGmpSession(settings: GmpSettings, outbound: OutboundPolicy, signal: AbortSignal): Promise<GmpSession> {
  let address: string;
  try {
    address = await checkDestination(settings.host, outbound);
  } catch (error) {
    const failure = classifyNetworkError(error, `${settings.host}:${settings.port}`) as { reason: ConnectivityFailureReason; detail: string };
    throw new GmpFailure(failure.reason, failure.detail);
  }
  const socket = await secureSocket(settings, address);
  socket.setEncoding('utf8');
  // Between commands nobody reads: a late error (the server hanging up) must not go unhandled; the next read sees the end.
  socket.on('error', () => undefined);
  // One command at a time: GMP answers in order, and a discovery reads page after page anyway.
  let queue: Promise<unknown> = Promise.resolve();
  const command: GmpSession['command'] = (xml, responseName, listElements = []) => {
    const next = queue.then(async () => {
      const answer = readAnswer(socket, settings, signal);
      socket.write(xml);
      let parsed: Record<string, unknown>;
      try {
        parsed = parseXmlBody(await answer, listElements) as Record<string, unknown>;
      } catch (error) {
        if (error instanceof XmlBodyError) throw new GmpFailure('protocol', `${settings.host}:${settings.port} answered ${responseName} with ${error.message}`);
        throw error;
      }
      const response = (parsed[responseName] ?? Object.values(parsed)[0]) as Record<string, unknown> | undefined;
      const status = String(response?.['@status'] ?? '');
      if (!status.startsWith('2')) {
        const text = String(response?.['@status_text'] ?? 'no status');
        throw new GmpFailure(status === '400' && responseName === 'authenticate_response' ? 'unauthorized' : status === '403' ? 'forbidden' : 'protocol', `gvmd answered ${responseName} with ${status || 'no status'}: ${text}`);
      }
      return response!;
    });
    queue = next.catch(() => undefined);
    return next;
  };
  const session: GmpSession = { command, close: () => socket.destroy() };
  try {
    await command(`<authenticate><credentials><username>${xmlText(settings.username)}</username><password>${xmlText(settings.password)}</password></credentials></authenticate>`, 'authenticate_response');
  } catch (error) {
    session.close();
    throw error;
  }
  return session;
}
