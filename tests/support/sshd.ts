import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile, chmod } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway OpenSSH server for tests: Debian's sshd on a loopback port with its own config, host key and
 * authorized_keys in a temp folder, signing in the current user with a client key (passphrase-protected).
 */
export type SshdServer = {
  port: number;
  username: string;
  /** The client's private key (OpenSSH form, encrypted with `passphrase`). */
  privateKey: string;
  passphrase: string;
  /** The host key's fingerprint as `ssh-keygen -lf` prints it (SHA256:...). */
  hostFingerprint: string;
  stop: () => Promise<void>;
};

export const sshdBinary = '/usr/sbin/sshd';
export const sshdAvailable = existsSync(sshdBinary);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function keygen(args: string[]): string {
  const result = spawnSync('ssh-keygen', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`ssh-keygen ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

async function listening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`sshd exited: ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`sshd did not listen: ${log()}`);
}

export async function startSshd(options: { maxStartups?: number } = {}): Promise<SshdServer> {
  const folder = await mkdtemp(join(tmpdir(), 'cartograph-sshd-'));
  const port = await freePort();
  const username = userInfo().username;
  const passphrase = 'client key passphrase';
  keygen(['-q', '-t', 'ed25519', '-N', '', '-f', join(folder, 'host_key')]);
  keygen(['-q', '-t', 'ed25519', '-N', passphrase, '-f', join(folder, 'client_key')]);
  await writeFile(join(folder, 'authorized_keys'), readFileSync(join(folder, 'client_key.pub')));
  await chmod(join(folder, 'authorized_keys'), 0o600);
  const hostFingerprint = keygen(['-lf', join(folder, 'host_key.pub')]).split(/\s+/)[1];
  // Root's sshd wants its privilege-separation folder, which the packaged service would create.
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  await writeFile(join(folder, 'sshd_config'), [
    `Port ${port}`, 'ListenAddress 127.0.0.1', `HostKey ${join(folder, 'host_key')}`, `PidFile ${join(folder, 'sshd.pid')}`,
    `AuthorizedKeysFile ${join(folder, 'authorized_keys')}`, 'StrictModes no', 'UsePAM no', 'PasswordAuthentication no',
    'KbdInteractiveAuthentication no', 'PubkeyAuthentication yes', 'PermitRootLogin prohibit-password', `AllowUsers ${username}`,
    `MaxStartups ${options.maxStartups ?? 100}`, 'MaxSessions 100', 'LogLevel ERROR', '',
  ].join('\n'));
  let log = '';
  const child = spawn(sshdBinary, ['-D', '-e', '-f', join(folder, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.on('data', (part: Buffer) => {
    if (log.length < 20_000) log += part.toString();
  });
  await listening(port, child, () => log);
  return {
    port, username, passphrase, hostFingerprint,
    privateKey: readFileSync(join(folder, 'client_key'), 'utf8'),
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      await rm(folder, { recursive: true, force: true });
    },
  };
}
