import { generateSecret, generateURI, verify } from 'otplib';
import { decryptSecret, encryptSecret } from '../auth/secretBox.js';
import { product } from '../../core/product.js';
import type { Queryable } from '../db/database.js';
import { spendRecoveryCode } from './recoveryCodes.js';

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

/**
 * The second step of a sign-in: a six-digit code from the app, or one of the user's recovery codes (used up by this
 * sign-in) for someone who lost the app.
 */
export async function verifySecondFactor(db: Queryable, secretsKey: Buffer, user: { id: number; otp_secret: string }, typed: string): Promise<boolean> {
  if (/^[0-9]{6}$/.test(typed)) return verifyOtpCode(secretsKey, user.otp_secret, typed);
  return spendRecoveryCode(db, user.id, typed);
}
