import { createHash } from 'node:crypto';

/**
 * How a bearer secret is stored: its SHA-256, hex. API tokens, connector tokens and single sign-on hand-off codes
 * are high-entropy random strings, so a plain hash is enough to keep them irreversibly: no salt or slow hash is
 * needed, as there is nothing to guess.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
