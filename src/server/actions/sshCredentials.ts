import type { Queryable } from '../db/database.js';
import { openSecrets } from '../auth/secretFields.js';

export const sshCredentialKind = 'cartograph:entities/ssh-credential';
export const sshSecretFields = new Set(['password', 'private_key', 'passphrase']);

export type SshCredential = {
  name: string; username: string; port: number; auth_method: 'password' | 'private_key';
  password: string; private_key: string; passphrase: string; known_host_fingerprints: string[];
};

export const sshCredentialDefaults = { port: 22, password: '', private_key: '', passphrase: '' };

/** A company's SSH credential with its secrets opened (for the runner only: never answer or log it). */
export async function openSshCredential(db: Queryable, secretsKey: Buffer, companyId: number, id: number): Promise<SshCredential | null> {
  const [row] = await db.query<{ document: SshCredential }>('select document from resources where kind = $1 and company_id = $2 and id = $3', [sshCredentialKind, companyId, id]);
  return row ? ({ ...sshCredentialDefaults, ...openSecrets(secretsKey, row.document, sshSecretFields) } as SshCredential) : null;
}
