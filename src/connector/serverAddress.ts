import { isIP } from 'node:net';

/** Why the connector refuses to start: told on the console as it is, then the process exits. */
export class ConnectorSetupError extends Error {}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/**
 * The server's base URL, checked: the connector sends its token and receives connection secrets, so it speaks
 * HTTPS, except to this very machine (loopback), where nothing crosses a network.
 */
export function serverAddress(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConnectorSetupError(`--url ${text} is not a URL; give the console's address, e.g. https://cartograph.example.com`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new ConnectorSetupError(
      `Refusing plain http:// to ${url.hostname}: the connector's token and the connections' secrets would cross the network unencrypted. Use https:// (plain http is allowed only to localhost).`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConnectorSetupError(`--url must start with https:// (got ${url.protocol}).`);
  if (url.username || url.password) throw new ConnectorSetupError('--url must not hold a user name or password; the connector signs in with its token.');
  url.pathname = url.pathname.replace(/\/+$/, '');
  url.search = '';
  url.hash = '';
  return url;
}
