import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { product } from '../../../core/product';
import { apiFetch } from '../../app/http';
import { login, type Credentials } from '../../app/session/login';
import { useSession } from '../../app/session/session';
import { ShellButton } from '../../app/shell/ShellButton';
import { safeRedirect } from './safeRedirect';

/** Sign-in: username and password (or LDAP), then a one-time code when the account asks for one. */
export function Login() {
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as { redirect?: unknown };
  const redirect = safeRedirect(search.redirect);
  const { loggingIn } = useSession();
  const [credentials, setCredentials] = useState<Credentials>({ username: '', password: '' });
  const [ldap, setLdap] = useState(false);
  // LDAP is offered only when an administrator configured a directory (GET /api/sign-in-methods, public).
  const [ldapOffered, setLdapOffered] = useState(false);
  useEffect(() => {
    let current = true;
    apiFetch<{ ldap: boolean }>('/api/sign-in-methods', { silent: true }).then((methods) => current && setLdapOffered(methods.ldap)).catch(() => undefined);
    return () => {
      current = false;
    };
  }, []);
  const [otpStep, setOtpStep] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    document.title = `Sign in - ${product.name}`;
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const result = await login(otpStep ? credentials : { username: credentials.username, password: credentials.password }, ldap && ldapOffered ? 'ldap' : 'password');
    if (result.outcome === 'otp') {
      setOtpStep(true);
      return;
    }
    if (result.outcome === 'success') {
      await navigate(result.passwordExpired ? ({ to: '/password-expired', search: { redirect } } as never) : ({ href: redirect } as never));
      return;
    }
    if (result.locked) {
      await navigate({ to: '/locked' } as never);
      return;
    }
    setError(result.message);
  };
  const update = (field: keyof Credentials) => (event: { target: { value: string } }) => setCredentials({ ...credentials, [field]: event.target.value });

  return (
    <form className="auth-form" onSubmit={(event) => void submit(event)} aria-labelledby="login-heading">
      <h1 id="login-heading">{otpStep ? 'Enter your one-time code' : 'Sign in'}</h1>
      {!otpStep ? (
        <>
          <label>
            Username
            <input type="text" name="username" autoComplete="username" required value={credentials.username} onChange={update('username')} autoFocus />
          </label>
          <label>
            Password
            <input type="password" name="password" autoComplete="current-password" required value={credentials.password} onChange={update('password')} />
          </label>
          {ldapOffered && (
            <label className="auth-form__check">
              <input type="checkbox" name="ldap" checked={ldap} onChange={(event) => setLdap(event.target.checked)} /> Sign in with LDAP
            </label>
          )}
        </>
      ) : (
        <label>
          One-time code
          <input type="text" name="otp" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required value={credentials.otp ?? ''} onChange={update('otp')} autoFocus />
        </label>
      )}
      {error && (
        <p className="auth-form__error" role="alert">
          {error}
        </p>
      )}
      <ShellButton type="submit" loading={loggingIn}>
        {otpStep ? 'Verify' : 'Sign in'}
      </ShellButton>
      {otpStep && (
        <ShellButton
          variant="link"
          onClick={() => {
            setOtpStep(false);
            setCredentials({ username: credentials.username, password: '' });
          }}
        >
          Use another account
        </ShellButton>
      )}
    </form>
  );
}
