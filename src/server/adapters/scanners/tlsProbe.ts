import { isIP } from 'node:net';
import { connect, rootCertificates, type DetailedPeerCertificate } from 'node:tls';
import { classifyNetworkError } from '../connectivity.js';
import type { ConnectivityFailureReason, ConnectivityResult } from '../engine.js';
import type { TlsEndpoint } from './tlsTargets.js';

/** What one TLS handshake revealed. The chain runs from the leaf (position 0) towards the root. */
export type TlsHandshake =
  | {
      ok: true;
      endpoint: TlsEndpoint;
      remoteAddress: string | null;
      protocol: string | null;
      cipher: string | null;
      /** Whether the chain verifies against the trusted authorities and matches the host name. */
      authorized: boolean;
      authorizationError: string | null;
      chain: Buffer[];
    }
  | { ok: false; endpoint: TlsEndpoint; reason: ConnectivityFailureReason; detail: string };

// The longest chain kept: real chains are 2–4 long; the bound protects against a malicious loop.
const maximumChainLength = 10;

function chainOf(leaf: DetailedPeerCertificate): Buffer[] {
  const chain: Buffer[] = [];
  const seen = new Set<string>();
  let current: DetailedPeerCertificate | undefined = leaf;
  while (current?.raw && !seen.has(current.fingerprint256) && chain.length < maximumChainLength) {
    seen.add(current.fingerprint256);
    chain.push(current.raw);
    current = current.issuerCertificate;
  }
  return chain;
}

/**
 * Connects, completes the handshake without rejecting any certificate (an expired or self-signed one is
 * exactly what an inventory wants to see), records whether it would have been trusted, and hangs up.
 * Never rejects: a failure is a result with a precise reason.
 */
export function probeTls(endpoint: TlsEndpoint, timeoutMs: number, customCa: string | null): Promise<TlsHandshake> {
  const target = `${isIP(endpoint.host) === 6 ? `[${endpoint.host}]` : endpoint.host}:${endpoint.port}`;
  return new Promise((resolve) => {
    const socket = connect({
      host: endpoint.host,
      port: endpoint.port,
      // SNI is only sent for names: servers pick the certificate for the name the client asks for.
      servername: isIP(endpoint.host) ? undefined : endpoint.host,
      rejectUnauthorized: false,
      ca: customCa ? [...rootCertificates, customCa] : undefined,
    });
    let settled = false;
    const finish = (result: TlsHandshake) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ ok: false, endpoint, reason: 'timeout', detail: `${target} did not complete a TLS handshake within ${timeoutMs} ms.` }), timeoutMs);
    socket.once('secureConnect', () => {
      const certificate = socket.getPeerCertificate(true);
      if (!certificate?.raw) {
        finish({ ok: false, endpoint, reason: 'tls', detail: `${target} completed the handshake without presenting a certificate.` });
        return;
      }
      const authorizationError = socket.authorizationError;
      finish({
        ok: true,
        endpoint,
        remoteAddress: socket.remoteAddress ?? null,
        protocol: socket.getProtocol(),
        cipher: socket.getCipher()?.name ?? null,
        authorized: socket.authorized,
        authorizationError: authorizationError ? String(authorizationError) : null,
        chain: chainOf(certificate),
      });
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      // "wrong version number" and friends: something answered, but not with TLS.
      if (/wrong version number|unknown protocol|packet length too long|disconnected before secure TLS/i.test(error.message)) {
        finish({ ok: false, endpoint, reason: 'protocol', detail: `${target} answered but does not speak TLS on this port (plain text or STARTTLS service?).` });
        return;
      }
      const failure = classifyNetworkError(error, target) as Extract<ConnectivityResult, { ok: false }>;
      finish({ ok: false, endpoint, reason: failure.reason, detail: failure.detail });
    });
  });
}
