import { t } from '../i18n/messages';
import { ApiError, apiFetch } from '../http/client';
import { setToken, updateSession } from './session';

export type Credentials = { username: string; password: string; otp?: string };
/** Login outcomes of spec §4 (a locked account is a failure the login page sends to /locked). */
export type LoginResult = { outcome: 'success'; passwordExpired: boolean } | { outcome: 'otp' } | { outcome: 'failure'; message: string; locked: boolean };
type TokenResponse = { access?: string; otp_required?: boolean; password_expired?: boolean; detail?: string };

function failure(error: unknown): LoginResult {
  if (error instanceof ApiError) {
    const code = (error.body as { code?: unknown } | null)?.code;
    return { outcome: 'failure', message: error.message, locked: error.status === 403 && code === 'account_locked' };
  }
  return { outcome: 'failure', message: t('error.unknown'), locked: false };
}

function outcomeOf(answer: TokenResponse): LoginResult | null {
  if (answer.access) {
    setToken(answer.access);
    return { outcome: 'success', passwordExpired: answer.password_expired === true };
  }
  if (answer.otp_required) return { outcome: 'otp' };
  return null;
}

async function passwordSignIn(credentials: Credentials): Promise<LoginResult> {
  try {
    const answer = await apiFetch<TokenResponse>('/api/token', { method: 'POST', body: credentials, silent: true });
    return outcomeOf(answer) ?? { outcome: 'failure', message: answer.detail ?? t('error.unknown'), locked: false };
  } catch (error) {
    return failure(error);
  }
}

/** LDAP sign-in (spec §7): an answer with a detail and no access is retried once, then the sign-in fails. */
async function ldapSignIn(credentials: Credentials): Promise<LoginResult> {
  const body = { username: credentials.username, password: credentials.password };
  let last: LoginResult = { outcome: 'failure', message: t('error.unknown'), locked: false };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    let answer: TokenResponse;
    try {
      answer = await apiFetch<TokenResponse>('/api/token/ldap', { method: 'POST', body, silent: true });
    } catch (error) {
      last = failure(error);
      const detail = error instanceof ApiError ? (error.body as TokenResponse | null)?.detail : undefined;
      const locked = last.outcome === 'failure' && last.locked;
      if (typeof detail === 'string' && !locked) continue;
      return last;
    }
    const outcome = outcomeOf(answer);
    if (outcome) return outcome;
    last = { outcome: 'failure', message: answer.detail ?? t('error.unknown'), locked: false };
    if (typeof answer.detail !== 'string') return last;
  }
  return last;
}

/** Signs in; the logging-in flag is set while it runs; on success the token is stored (the guards load the rest). */
export async function login(credentials: Credentials, method: 'password' | 'ldap' = 'password'): Promise<LoginResult> {
  updateSession({ loggingIn: true });
  try {
    return method === 'ldap' ? await ldapSignIn(credentials) : await passwordSignIn(credentials);
  } finally {
    updateSession({ loggingIn: false });
  }
}
