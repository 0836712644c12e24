import { generateSecret, generateURI, verify } from 'otplib';
import { decryptSecret, encryptSecret } from '../auth/secretBox.js';
import { product } from '../../core/product.js';

/** A new TOTP secret (base32) and the `otpauth://` address an authenticator app scans. */
export function newOtpEnrolment(username: string): { secret: string; otpauthUrl: string } {
  const secret = generateSecret();
  return { secret, otpauthUrl: generateURI({ issuer: product.name, label: username, secret }) };
}

/** Checks a six-digit code against an encrypted secret, accepting one 30-second step of clock drift. */
export async function verifyOtpCode(secretsKey: Buffer, sealedSecret: string, code: string): Promise<boolean> {
  const result = await verify({ secret: decryptSecret(secretsKey, sealedSecret), token: code, epochTolerance: 30 });
  return result.valid;
}

export const sealOtpSecret = (secretsKey: Buffer, secret: string): string => encryptSecret(secretsKey, secret);
