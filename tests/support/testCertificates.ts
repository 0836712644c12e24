import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Real X.509 certificates for tests, made with the openssl command line: a CA, leaves it issues, self-signed
 * leaves, any validity window (an expired one included, which `openssl req -days` cannot express).
 */
export type TestCertificate = { key: string; cert: string };

export type CertificateRequest = {
  commonName: string;
  /** subjectAltName entries, e.g. `DNS:localhost`, `IP:127.0.0.1`. */
  altNames?: string[];
  /** `rsa:2048` (default) or `ec:prime256v1`. */
  keyType?: string;
  /** openssl `YYYYMMDDHHMMSSZ`; default: yesterday. */
  notBefore?: string;
  /** default: one year from now. */
  notAfter?: string;
  isCa?: boolean;
  /** Signature digest (`sha256` by default; `sha1` for a weak one). */
  digest?: string;
};

function openssl(args: string[], directory: string): string {
  return execFileSync('openssl', args, { cwd: directory, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** `YYYYMMDDHHMMSSZ` for a date `days` from now (negative: in the past). */
export function opensslDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';
}

function newKey(directory: string, keyType: string): string {
  const path = join(directory, `key-${Math.random().toString(36).slice(2)}.pem`);
  if (keyType.startsWith('ec:')) openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', `ec_paramgen_curve:${keyType.slice(3)}`, '-out', path], directory);
  else openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', `rsa_keygen_bits:${keyType.split(':')[1] ?? '2048'}`, '-out', path], directory);
  return path;
}

/** Issues a certificate signed by `issuer`, or self-signed when `issuer` is null. */
export function issueCertificate(request: CertificateRequest, issuer: TestCertificate | null): TestCertificate {
  const directory = mkdtempSync(join(tmpdir(), 'cartograph-certs-'));
  try {
    writeFileSync(join(directory, 'index.txt'), '');
    writeFileSync(join(directory, 'serial'), `${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, '0')}01\n`);
    writeFileSync(join(directory, 'ca.conf'), [
      '[ ca ]', 'default_ca = test', '[ test ]', `dir = ${directory}`, `database = ${join(directory, 'index.txt')}`, `new_certs_dir = ${directory}`,
      `serial = ${join(directory, 'serial')}`, 'default_md = sha256', 'policy = anything', 'unique_subject = no', 'email_in_dn = no',
      '[ anything ]', 'commonName = supplied', 'organizationName = optional', '',
    ].join('\n'));
    const extensions = request.isCa
      ? ['basicConstraints = critical, CA:TRUE', 'keyUsage = critical, keyCertSign, cRLSign', 'subjectKeyIdentifier = hash']
      : ['basicConstraints = CA:FALSE', 'keyUsage = digitalSignature, keyEncipherment', 'extendedKeyUsage = serverAuth', 'subjectKeyIdentifier = hash'];
    if (request.altNames?.length) extensions.push(`subjectAltName = ${request.altNames.join(', ')}`);
    writeFileSync(join(directory, 'ext.conf'), `${extensions.join('\n')}\n`);
    const keyPath = newKey(directory, request.keyType ?? 'rsa:2048');
    openssl(['req', '-new', '-key', keyPath, '-subj', `/O=Cartograph Tests/CN=${request.commonName}`, '-out', 'request.csr'], directory);
    const signing = issuer ? ['-cert', join(directory, 'issuer.pem'), '-keyfile', join(directory, 'issuer.key')] : ['-selfsign', '-keyfile', keyPath];
    if (issuer) {
      writeFileSync(join(directory, 'issuer.pem'), issuer.cert);
      writeFileSync(join(directory, 'issuer.key'), issuer.key);
    }
    openssl(['ca', '-batch', '-notext', '-config', 'ca.conf', ...signing, '-in', 'request.csr', '-out', 'cert.pem', '-extfile', 'ext.conf',
      '-md', request.digest ?? 'sha256', '-startdate', request.notBefore ?? opensslDate(-1), '-enddate', request.notAfter ?? opensslDate(365)], directory);
    return { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(join(directory, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
