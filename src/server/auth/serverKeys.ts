import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `reportLinksKey` signs the download links e-mailed for report files too large to attach. */
export type ServerKeys = { tokenSigningKey: Uint8Array; secretsKey: Buffer; reportLinksKey: Buffer };

function deriveKey(master: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `cartograph:${purpose}`, 32));
}

/** The master key from CARTOGRAPH_SECRET_KEY, or from `secret.key` in the data folder (created 0600 on first start). */
function readMasterKey(secretKey: string | null, dataDir: string): Buffer {
  if (secretKey) return createHash('sha256').update(secretKey).digest();
  const keyFile = join(dataDir, 'secret.key');
  if (!existsSync(keyFile)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(keyFile, 0o600);
  return Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
}

/**
 * Separate keys for signing access tokens, encrypting secrets and signing report download links, all derived from one
 * master key: a key that leaks or is misused for one purpose forges nothing for another.
 */
export function loadServerKeys(secretKey: string | null, dataDir: string): ServerKeys {
  const master = readMasterKey(secretKey, dataDir);
  return { tokenSigningKey: deriveKey(master, 'access-tokens'), secretsKey: deriveKey(master, 'secrets'), reportLinksKey: deriveKey(master, 'report-links') };
}
