import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import ssh2, { type AuthMethod, type ParsedKey } from 'ssh2';
import { checkDestination } from '../../outbound/guard.js';
import type { ActionRunner, TargetResult } from '../actionTypes.js';
import { allTargets, messageOf } from '../actionTypes.js';
import { mapBounded } from '../bounded.js';
import { openSshCredential, type SshCredential } from '../sshCredentials.js';
import { renderText, shellQuote, type Target } from '../template.js';

// ssh2 is CommonJS: under Node's own ESM loader only its default export can be imported by name.
const { Client, utils } = ssh2;

type SshParameters = { credential: number; command_template: string; address_field?: string; output_limit_bytes?: number };

/** `SHA256:<base64 without padding>` of a host key, as `ssh-keygen -lf` prints it. */
export const fingerprintOf = (hostKey: Buffer) => `SHA256:${createHash('sha256').update(hostKey).digest('base64').replace(/=+$/, '')}`;

/** Whether the pinned fingerprints trust this host's key: `SHA256:…` trusts it on any host, `host SHA256:…` on that host. */
export function trustedKey(pins: string[], fingerprint: string, hosts: string[]): boolean {
  return pins.some((pin) => {
    const [first, second] = pin.trim().split(/\s+/);
    const [host, pinned] = second === undefined ? [null, first] : [first, second];
    return pinned.replace(/=+$/, '') === fingerprint && (host === null || hosts.some((name) => name.toLowerCase() === host.toLowerCase()));
  });
}

/** The address to connect to: the field's first value that is an address or a host name. */
export function addressOf(target: Target, field: string): string | null {
  const value = (target.fields[field] ?? []).map(String).find((candidate) => isIP(candidate) || /^[A-Za-z0-9.-]+$/.test(candidate));
  return value ?? null;
}

/** How to sign in: the password, or the private key opened once per run (its passphrase KDF is costly per host). */
export type SshSignIn = { type: 'password'; password: string } | { type: 'publickey'; key: ParsedKey };

/** Opens a credential's key with its passphrase; answers a message (never holding a secret) when it cannot. */
export function signInOf(credential: SshCredential): SshSignIn | string {
  if (credential.auth_method === 'password') return { type: 'password', password: credential.password };
  const unreadable = 'The private key cannot be read (or its passphrase is wrong).';
  let parsed: ReturnType<typeof utils.parseKey>;
  try {
    parsed = utils.parseKey(credential.private_key, credential.passphrase || undefined);
  } catch {
    return unreadable;
  }
  if (parsed instanceof Error) return unreadable;
  return { type: 'publickey', key: Array.isArray(parsed) ? parsed[0] : parsed };
}

/** Runs one command on one host: output (stdout then stderr, cut at the limit) and exit status, within the timeout. */
export function runOnHost(credential: SshCredential, signIn: SshSignIn, host: string, names: string[], command: string, timeoutMs: number, outputLimit: number): Promise<TargetResult> {
  return new Promise((resolve) => {
    const client = new Client();
    let output = '';
    let settled = false;
    let keyRefused: string | null = null;
    const finish = (result: TargetResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      client.end();
      resolve({ ...result, output: output.slice(0, outputLimit) });
    };
    const timer = setTimeout(() => {
      finish({ status: 'failed', detail: `Timed out after ${timeoutMs / 1000} s.`, exitCode: null });
      client.destroy();
    }, timeoutMs);
    const append = (part: Buffer) => {
      if (output.length < outputLimit) output += part.toString('utf8');
    };
    client.on('ready', () => {
      client.exec(command, (error, stream) => {
        if (error) return finish({ status: 'failed', detail: `Could not run the command: ${error.message}` });
        stream.on('data', append);
        stream.stderr.on('data', append);
        stream.on('close', (code: number | null, signal?: string) => {
          const exitCode = typeof code === 'number' ? code : null;
          finish({ status: exitCode === 0 ? 'succeeded' : 'failed', detail: exitCode === null ? `Ended by signal ${signal ?? 'unknown'}` : `Exit status ${exitCode}`, exitCode });
        });
      });
    });
    client.on('error', (error) => finish({ status: 'failed', detail: keyRefused ?? `SSH: ${error.message}`, exitCode: null }));
    client.on('close', () => finish({ status: 'failed', detail: keyRefused ?? 'The connection closed before the command ended.', exitCode: null }));
    client.connect({
      host, port: credential.port, username: credential.username, readyTimeout: timeoutMs,
      authHandler: [{ ...signIn, username: credential.username } as unknown as AuthMethod],
      hostVerifier: (key: Buffer) => {
        const fingerprint = fingerprintOf(key);
        if (trustedKey(credential.known_host_fingerprints, fingerprint, [host, ...names])) return true;
        keyRefused = `Host key ${fingerprint} is not among the credential's trusted fingerprints: not signed in.`;
        return false;
      },
    });
  });
}

/** Runs the command on every target with an address, `concurrency` hosts at once, each within the per-target timeout. */
export const sshRunner: ActionRunner = {
  entities: ['device'],
  async run({ context, companyId, parameters, settings, actionName, outbound }, targets) {
    const { credential: credentialId, command_template: template, address_field: field = 'IpAddresses', output_limit_bytes: limit = 65536 } = parameters as SshParameters;
    let credential: SshCredential | null;
    try {
      credential = await openSshCredential(context.db, context.keys.secretsKey, companyId, credentialId);
    } catch {
      credential = null;
    }
    if (!credential) return allTargets(targets, { status: 'failed', detail: `SSH credential ${credentialId} does not exist or cannot be opened.` });
    const opened = credential;
    const signIn = signInOf(opened);
    if (typeof signIn === 'string') return allTargets(targets, { status: 'failed', detail: signIn });
    return mapBounded(targets, settings.concurrency, async (target) => {
      const host = addressOf(target, field);
      if (!host) return { status: 'skipped', detail: `No address in ${field}.` };
      // The outbound guard judges the address (metadata never, loopback and private ranges by the policy), and
      // the session connects to the address it checked; the host key may still be pinned to the name.
      let address: string;
      try {
        address = await checkDestination(host, outbound);
      } catch (error) {
        return { status: 'failed', detail: `${host}: ${messageOf(error)}` };
      }
      const command = renderText(template, target, { action: actionName }, shellQuote);
      const result = await runOnHost(opened, signIn, address, [host, target.name, ...(target.fields.Hostname ?? []).map(String)], command, settings.target_timeout_seconds * 1000, limit);
      return { ...result, detail: `${host}: ${result.detail}` };
    });
  },
};
