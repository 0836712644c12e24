import { connect } from 'node:net';

/** What one TCP connect probe found. `unreachable` covers routing failures the administrator should hear about. */
export type ProbeResult =
  | { address: string; port: number; state: 'open'; banner: Buffer }
  | { address: string; port: number; state: 'closed' | 'filtered' }
  | { address: string; port: number; state: 'unreachable'; code: string };

/** How many banner bytes are kept: enough for an SSH, SMTP or MySQL greeting. */
const maximumBannerBytes = 512;

const closedCodes = new Set(['ECONNREFUSED', 'ECONNRESET']);

// A greeting is complete at a line end (SSH, SMTP, FTP, POP3, IMAP) or, for length-prefixed protocols such
// as the MySQL handshake, once the announced length has arrived.
function greetingComplete(banner: Buffer): boolean {
  if (banner.length >= maximumBannerBytes || banner.includes(0x0a)) return true;
  if (banner.length >= 4 && banner[3] === 0) return banner.length >= 4 + banner.readUIntLE(0, 3);
  return false;
}

/**
 * A TCP connect probe: completes the handshake within `timeoutMs`, then listens up to `bannerMs` for the
 * service to speak first (SSH, SMTP, FTP, MySQL do; HTTP and TLS wait for the client) and closes.
 * Never rejects: every outcome is a result.
 */
export function probeTcp(address: string, port: number, timeoutMs: number, bannerMs: number): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    const chunks: Buffer[] = [];
    let open = false;
    let settled = false;
    const finish = (result: ProbeResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.removeAllListeners('data');
      socket.destroy();
      resolve(result);
    };
    const finishOpen = () => finish({ address, port, state: 'open', banner: Buffer.concat(chunks).subarray(0, maximumBannerBytes) });
    let timer = setTimeout(() => finish({ address, port, state: 'filtered' }), timeoutMs);
    socket.once('connect', () => {
      open = true;
      clearTimeout(timer);
      timer = setTimeout(finishOpen, bannerMs);
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (greetingComplete(Buffer.concat(chunks))) finishOpen();
    });
    // A service that closes right after accepting (tcpwrappers, a full backlog) is still open.
    socket.once('end', () => (open ? finishOpen() : undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (open) return finishOpen();
      const code = error.code ?? 'UNKNOWN';
      if (closedCodes.has(code)) finish({ address, port, state: 'closed' });
      else if (code === 'ETIMEDOUT') finish({ address, port, state: 'filtered' });
      else finish({ address, port, state: 'unreachable', code });
    });
  });
}
