import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { Client } from 'ldapts';
import { join } from 'node:path';

/**
 * A throwaway OpenLDAP server for tests: its own slapd.conf, mdb database and port on 127.0.0.1, seeded
 * offline with slapadd before it starts. The Active Directory attributes and the user/computer classes come
 * from a small schema of ours (real Microsoft OIDs), so the same engine code reads it as it reads a domain.
 */
export type SlapdServer = {
  url: string;
  port: number;
  /** The LDAPS port, when started with `tls`. */
  securePort: number | null;
  suffix: string;
  rootDn: string;
  rootPassword: string;
  /**
   * The DNs of every bind slapd has received so far, in order (only when started with `logBinds`). A marker bind is
   * sent and awaited in slapd's log first, so every bind made before the call is in the answer.
   */
  binds: () => Promise<string[]>;
  stop: () => Promise<void>;
};

export type SlapdOptions = {
  suffix: string;
  /** Entries below `suffix`, the suffix entry itself included. */
  ldif: string;
  rootPassword?: string;
  /** Server-side size limit for ordinary binds (the rootdn ignores limits); paged searches may still read everything. */
  sizeLimit?: number;
  /** PEM server certificate and key: slapd then also listens for LDAPS. */
  tls?: { cert: string; key: string };
  /** Runs slapd with its statistics log (`-d stats`), which names every bind: `binds` reads them. */
  logBinds?: boolean;
};

const slapdBinary = '/usr/sbin/slapd';
const slapaddBinary = '/usr/sbin/slapadd';
const systemSchemas = ['core', 'cosine', 'inetorgperson', 'nis'].map((name) => `/etc/ldap/schema/${name}.schema`);

// Syntaxes: 15 Directory String, 27 Integer, 12 DN, 24 Generalized Time.
const activeDirectorySchema = `
attributetype ( 1.2.840.113556.1.4.221 NAME 'sAMAccountName' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.2.840.113556.1.4.656 NAME 'userPrincipalName' EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.2.840.113556.1.4.8 NAME 'userAccountControl' EQUALITY integerMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
attributetype ( 1.2.840.113556.1.4.1696 NAME 'lastLogonTimestamp' EQUALITY integerMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
attributetype ( 1.2.840.113556.1.4.662 NAME 'lockoutTime' EQUALITY integerMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
attributetype ( 1.2.840.113556.1.4.35 NAME 'employeeID' EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.2.840.113556.1.2.102 NAME 'memberOf' EQUALITY distinguishedNameMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.12 )
attributetype ( 1.2.840.113556.1.4.619 NAME 'dNSHostName' EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.2.840.113556.1.4.363 NAME 'operatingSystem' EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.2.840.113556.1.4.364 NAME 'operatingSystemVersion' EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
objectclass ( 1.2.840.113556.1.5.9 NAME 'user' SUP top STRUCTURAL MUST cn
  MAY ( sAMAccountName $ userPrincipalName $ userAccountControl $ lastLogonTimestamp $ lockoutTime $ employeeID $ memberOf $ mail $ displayName $ givenName $ sn $ description ) )
objectclass ( 1.2.840.113556.1.3.30 NAME 'computer' SUP user STRUCTURAL MAY ( dNSHostName $ operatingSystem $ operatingSystemVersion ) )
`;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts slapd seeded with `ldif` (entries below `suffix`, the suffix entry itself included by the caller). */
export async function startSlapd(options: SlapdOptions): Promise<SlapdServer> {
  if (!existsSync(slapdBinary) || !existsSync(slapaddBinary)) {
    throw new Error(`OpenLDAP is not installed (${slapdBinary} missing): install the Debian packages slapd and ldap-utils (apt-get install slapd ldap-utils) to run the LDAP tests.`);
  }
  const directory = await mkdtemp(join(tmpdir(), 'cartograph-slapd-'));
  const rootDn = `cn=admin,${options.suffix}`;
  const rootPassword = options.rootPassword ?? 'admin-secret';
  const configPath = join(directory, 'slapd.conf');
  await writeFile(join(directory, 'activedirectory.schema'), activeDirectorySchema);
  const tlsLines: string[] = [];
  if (options.tls) {
    await writeFile(join(directory, 'server.pem'), options.tls.cert);
    await writeFile(join(directory, 'server.key'), options.tls.key, { mode: 0o600 });
    tlsLines.push(`TLSCertificateFile ${join(directory, 'server.pem')}`, `TLSCertificateKeyFile ${join(directory, 'server.key')}`);
  }
  // size.pr / size.prtotal: a paged search is not bound by the plain size limit, as in Active Directory.
  const limitLines = options.sizeLimit ? [`sizelimit size.soft=${options.sizeLimit} size.hard=${options.sizeLimit} size.pr=${options.sizeLimit} size.prtotal=unlimited`] : ['sizelimit unlimited'];
  await writeFile(configPath, [
    ...systemSchemas.map((schema) => `include ${schema}`),
    `include ${join(directory, 'activedirectory.schema')}`,
    `pidfile ${join(directory, 'slapd.pid')}`,
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    ...tlsLines,
    ...limitLines,
    'database mdb',
    `directory ${directory}`,
    `suffix "${options.suffix}"`,
    `rootdn "${rootDn}"`,
    `rootpw ${rootPassword}`,
    'maxsize 10485760',
    '',
  ].join('\n'));
  await writeFile(join(directory, 'seed.ldif'), options.ldif);
  const seeded = spawnSync(slapaddBinary, ['-f', configPath, '-l', join(directory, 'seed.ldif')], { encoding: 'utf8', timeout: 30_000 });
  if (seeded.status !== 0) {
    await rm(directory, { recursive: true, force: true });
    throw new Error(`slapadd could not seed the test directory: ${seeded.stderr || seeded.error?.message}`);
  }
  const port = await freePort();
  const securePort = options.tls ? await freePort() : null;
  const url = `ldap://127.0.0.1:${port}/`;
  const listeners = securePort ? `${url} ldaps://127.0.0.1:${securePort}/` : url;
  // -d keeps slapd in the foreground, so it is our child and dies with `stop`; `stats` also logs each operation.
  const child: ChildProcess = spawn(slapdBinary, ['-f', configPath, '-h', listeners, '-d', options.logBinds ? 'stats' : '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let partialLine = '';
  const boundDns: string[] = [];
  const logWatchers = new Set<() => void>();
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
    if (!options.logBinds) return;
    const lines = (partialLine + chunk.toString()).split('\n');
    partialLine = lines.pop() ?? '';
    // `conn=1001 op=0 BIND dn="uid=alice,ou=People,dc=example" method=128`: one such line per bind request.
    for (const line of lines) {
      const bind = /\bBIND dn="(.*)" method=\d+/.exec(line);
      if (bind) boundDns.push(bind[1]!);
    }
    for (const watcher of logWatchers) watcher();
  });
  let markers = 0;
  const binds = async (): Promise<string[]> => {
    if (!options.logBinds) throw new Error('slapd was started without logBinds');
    const marker = `cn=log-marker-${(markers += 1)},${options.suffix}`;
    const seen = new Promise<void>((resolve) => {
      const watcher = () => {
        if (!boundDns.includes(marker)) return;
        logWatchers.delete(watcher);
        resolve();
      };
      logWatchers.add(watcher);
    });
    const client = new Client({ url });
    await client.bind(marker, 'not a password').catch(() => undefined);
    await client.unbind().catch(() => undefined);
    await seen;
    return boundDns.filter((dn) => !dn.startsWith('cn=log-marker-'));
  };
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const stop = async () => {
    if (!exited) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    }
    await rm(directory, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (exited) break;
    if ((await acceptsConnections(port)) && (!securePort || (await acceptsConnections(securePort)))) return { url, port, securePort, suffix: options.suffix, rootDn, rootPassword, binds, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`slapd did not start on ${url}: ${stderr.trim() || 'no output'}`);
}
