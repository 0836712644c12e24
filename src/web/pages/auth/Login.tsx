import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { product } from '../../../core/product';
import { apiFetch } from '../../app/http';
import { t } from '../../app/i18n/messages';
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
  const [ssoOffered, setSsoOffered] = useState(false);
  useEffect(() => {
    document.title = `${t('login.title')} - ${product.name}`;
    // Single sign-on is offered when a company set it up; the page works the same without the answer.
    apiFetch<{ enabled: boolean }>('/api/sso', { silent: true })
      .then((answer) => setSsoOffered(answer.enabled))
      .catch(() => setSsoOffered(false));
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
      <h1 id="login-heading">{otpStep ? t('login.otpTitle') : t('login.title')}</h1>
      {!otpStep ? (
        <>
          <label>
            {t('login.username')}
            <input type="text" name="username" autoComplete="username" required value={credentials.username} onChange={update('username')} autoFocus />
          </label>
          <label>
            {t('login.password')}
            <input type="password" name="password" autoComplete="current-password" required value={credentials.password} onChange={update('password')} />
          </label>
          {ldapOffered && (
            <label className="auth-form__check">
              <input type="checkbox" name="ldap" checked={ldap} onChange={(event) => setLdap(event.target.checked)} /> {t('login.ldap')}
            </label>
          )}
        </>
      ) : (
        <>
        <label>
          {t('login.otp')}
          {/* Six digits from the app, or a recovery code (letters and digits, with or without its dash). */}
          <input type="text" name="otp" autoComplete="one-time-code" pattern="[0-9]{6}|[A-Za-z0-9 \-]{10,13}" required value={credentials.otp ?? ''} onChange={update('otp')} autoFocus aria-describedby="login-otp-hint" />
        </label>
        <small id="login-otp-hint">{t('login.otpHint')}</small>
        </>
      )}
      {error && (
        <p className="auth-form__error" role="alert">
          {error}
        </p>
      )}
      <ShellButton type="submit" loading={loggingIn}>
        {otpStep ? t('login.verify') : t('login.submit')}
      </ShellButton>
      {otpStep && (
        <ShellButton
          variant="link"
          onClick={() => {
            setOtpStep(false);
            setCredentials({ username: credentials.username, password: '' });
          }}
        >
          {t('login.otherAccount')}
        </ShellButton>
      )}
      {ssoOffered && !otpStep && (
        <Link to="/sso" search={{ redirect } as never} className="button auth-form__sso">
          {t('login.sso')}
        </Link>
      )}
    </form>
  );
}
