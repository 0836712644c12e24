import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';

// Reading certificates that people upload or paste: PEM (one or several blocks), DER, PKCS#7 bundles (.p7b, PEM or
// DER) and PKCS#12 files (.pfx/.p12) opened with a password used for this one call. X.509 is read by node:crypto;
// PKCS#7 and PKCS#12 containers, which node:crypto cannot open, by the `openssl` command line (never by hand), with
// the password handed over in its environment (never on a command line other processes can read) and `-nokeys`, so
// a PKCS#12's private key never leaves openssl.

/** A refusal to show as it is: a field error on the upload (400), never a server error. */
export class CertificateInputError extends Error {}

/** Largest upload read: bundles are a few kilobytes; a megabyte leaves room for long chains and many certificates. */
export const maximumCertificateUploadBytes = 1_048_576;
/** Most certificates one upload may hold. */
const maximumCertificates = 100;
/** How long openssl may take to open a container. */
const opensslTimeoutMs = 10_000;

export type CertificateFormat = 'pem' | 'der' | 'pkcs7' | 'pkcs12';
export type CertificateUpload = { format: CertificateFormat; certificates: Buffer[] };

const pemBlock = /-----BEGIN ([A-Z0-9 #]+)-----([\s\S]*?)-----END \1-----/g;
const base64Text = /^[A-Za-z0-9+/=\s]+$/;

function readDer(der: Buffer, what: string): Buffer {
  try {
    new X509Certificate(der);
    return der;
  } catch (error) {
    throw new CertificateInputError(`${what} is not a readable X.509 certificate (${(error as Error).message}).`);
  }
}

/** Runs openssl with `input` on stdin; answers its stdout, or throws with its stderr. */
function runOpenssl(args: string[], input: Buffer, environment: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('openssl', args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...environment }, stdio: ['pipe', 'pipe', 'pipe'], timeout: opensslTimeoutMs });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Output of a bounded input is bounded too; this only guards against a surprise.
      if (size > maximumCertificateUploadBytes * 4) child.kill();
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new CertificateInputError('PKCS#7 and PKCS#12 files need the openssl command on the server, which is missing: upload the certificates as PEM or DER.') : error),
    );
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out).toString('utf8')) : reject(new Error(Buffer.concat(err).toString('utf8').slice(0, 500) || `openssl ended with ${code}`))));
    child.stdin.end(input);
  });
}

function certificatesOfPem(text: string): Buffer[] {
  const certificates: Buffer[] = [];
  for (const match of text.matchAll(pemBlock)) if (match[1].endsWith('CERTIFICATE')) certificates.push(Buffer.from(match[2].replace(/\s+/g, ''), 'base64'));
  return certificates;
}

async function readPkcs7(der: Buffer): Promise<Buffer[] | null> {
  try {
    return certificatesOfPem(await runOpenssl(['pkcs7', '-inform', 'DER', '-print_certs'], der));
  } catch (error) {
    if (error instanceof CertificateInputError) throw error;
    return null;
  }
}

async function readPkcs12(der: Buffer, password: string | null): Promise<Buffer[] | null> {
  const open = (legacy: boolean) => runOpenssl(['pkcs12', '-nokeys', ...(legacy ? ['-legacy'] : []), '-passin', 'env:CARTOGRAPH_PKCS12_PASSWORD'], der, { CARTOGRAPH_PKCS12_PASSWORD: password ?? '' });
  try {
    try {
      return certificatesOfPem(await open(false));
    } catch (error) {
      // Files from older tools use RC2 or 3DES, which OpenSSL 3 keeps in its legacy provider.
      if (/unsupported|RC2|legacy/i.test((error as Error).message)) return certificatesOfPem(await open(true));
      throw error;
    }
  } catch (error) {
    if (error instanceof CertificateInputError) throw error;
    const message = (error as Error).message;
    if (/mac verify|invalid password|bad decrypt|pkcs12 cipherfinal/i.test(message)) {
      throw new CertificateInputError(password ? 'The PKCS#12 password is wrong.' : 'This is a PKCS#12 file protected by a password: give its password.');
    }
    return null;
  }
}

async function readBinary(bytes: Buffer, password: string | null): Promise<CertificateUpload> {
  try {
    new X509Certificate(bytes);
    return { format: 'der', certificates: [bytes] };
  } catch {
    // Not one DER certificate: a container, or garbage.
  }
  // A DER PKCS#7 or PKCS#12 starts with a SEQUENCE; anything else is neither (and saves two openssl runs).
  if (bytes[0] === 0x30) {
    const bundle = await readPkcs7(bytes);
    if (bundle?.length) return { format: 'pkcs7', certificates: bundle };
    const pfx = await readPkcs12(bytes, password);
    if (pfx) {
      if (!pfx.length) throw new CertificateInputError('The PKCS#12 file holds no certificate.');
      return { format: 'pkcs12', certificates: pfx };
    }
  }
  throw new CertificateInputError('This is not a certificate Cartograph can read: upload PEM, DER, a PKCS#7 bundle (.p7b) or a PKCS#12 file (.pfx, .p12) — the file may be truncated.');
}

/**
 * The certificates of an upload, in the order given. Before: the bytes of a `.pem`, `.crt`, `.der`, `.p7b` or
 * `.pfx` file (or pasted text; base64 of a binary file counts as that file); after: `{format: 'pem', certificates:
 * [DER, DER]}`. Throws CertificateInputError for what cannot be read, for private keys, and for wrong passwords.
 */
export async function readCertificateUpload(input: Buffer, password: string | null = null): Promise<CertificateUpload> {
  if (!input.length || !input.toString('latin1').trim()) throw new CertificateInputError('The upload is empty.');
  if (input.length > maximumCertificateUploadBytes) throw new CertificateInputError(`The upload is larger than ${maximumCertificateUploadBytes / 1_048_576} MiB; a certificate bundle is a few kilobytes.`);
  const text = input.toString('latin1');
  let upload: CertificateUpload;
  if (text.includes('-----BEGIN ')) {
    const blocks = [...text.matchAll(pemBlock)];
    const labels = blocks.map((match) => match[1]);
    const key = labels.find((label) => label.includes('PRIVATE KEY')) ?? (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.exec(text) ? 'PRIVATE KEY' : null);
    if (key) throw new CertificateInputError(`This holds a private key (${key}). Cartograph never stores private keys: upload the certificate only.`);
    if (!blocks.length) throw new CertificateInputError('The PEM text is truncated: a BEGIN line has no matching END line.');
    const other = labels.find((label) => !label.endsWith('CERTIFICATE') && label !== 'PKCS7' && label !== 'CMS');
    if (other) throw new CertificateInputError(`This holds a ${other}, not a certificate.`);
    const certificates: Buffer[] = [];
    for (const [index, match] of blocks.entries()) {
      const der = Buffer.from(match[2].replace(/\s+/g, ''), 'base64');
      if (match[1].endsWith('CERTIFICATE')) certificates.push(readDer(der, `PEM block ${index + 1}`));
      else {
        const bundle = await readPkcs7(der);
        if (!bundle?.length) throw new CertificateInputError(`PEM block ${index + 1} is not a readable PKCS#7 bundle.`);
        certificates.push(...bundle);
      }
    }
    upload = { format: labels.every((label) => label.endsWith('CERTIFICATE')) ? 'pem' : 'pkcs7', certificates };
  } else if (base64Text.test(text) && text.replace(/\s+/g, '').length % 4 === 0) {
    const decoded = Buffer.from(text.replace(/\s+/g, ''), 'base64');
    // A PEM file sent as base64 (the console sends every file so) is read as the PEM it is.
    if (decoded.toString('latin1').includes('-----BEGIN ')) return readCertificateUpload(decoded, password);
    upload = await readBinary(decoded, password);
  } else {
    upload = await readBinary(input, password);
  }
  if (upload.certificates.length > maximumCertificates) throw new CertificateInputError(`The upload holds ${upload.certificates.length} certificates; at most ${maximumCertificates} are read from one upload.`);
  for (const [index, der] of upload.certificates.entries()) readDer(der, `Certificate ${index + 1}`);
  return upload;
}

/** PEM text of a DER certificate. */
export function pemOfDer(der: Buffer): string {
  return `-----BEGIN CERTIFICATE-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/**
 * A certificate a source reports as text: PEM, or base64 of DER (Azure Key Vault's `cer`, a Kubernetes secret's
 * base64 PEM). Null when it holds no readable certificate: the source's other fields are used instead.
 */
export function derOfReported(value: unknown): Buffer | null {
  if (typeof value !== 'string' || !value.trim() || value.length > maximumCertificateUploadBytes * 2) return null;
  let text = value.trim();
  if (!text.includes('-----BEGIN') && base64Text.test(text)) {
    const decoded = Buffer.from(text.replace(/\s+/g, ''), 'base64');
    if (!decoded.toString('latin1').includes('-----BEGIN')) return tryDer(decoded);
    text = decoded.toString('latin1');
  }
  const [first] = certificatesOfPem(text);
  return first ? tryDer(first) : null;
}

function tryDer(der: Buffer): Buffer | null {
  try {
    new X509Certificate(der);
    return der;
  } catch {
    return null;
  }
}
