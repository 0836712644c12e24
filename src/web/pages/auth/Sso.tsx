import { useNavigate, useSearch } from '@tanstack/react-router';
import { Link } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { product } from '../../../core/product';
import { ApiError, apiFetch } from '../../app/http';
import { t } from '../../app/i18n/messages';
import { setToken } from '../../app/session/session';
import { ShellButton } from '../../app/shell/ShellButton';
import { safeRedirect } from './safeRedirect';

type SsoOptions = { enabled: boolean; domain_required: boolean };
type SsoSearch = { handoff?: unknown; error?: unknown; redirect?: unknown };

const messageOf = (failure: unknown) => (failure instanceof ApiError ? failure.message : failure instanceof Error ? failure.message : t('error.unknown'));

/**
 * `/sso`: single sign-on through the company's OpenID Connect provider. Without parameters it starts the sign-in
 * (asking for a work e-mail address when several companies use it); the server's callback comes back here with a
 * one-time hand-off code, exchanged for the access token, or with the provider's error.
 */
export function Sso() {
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as SsoSearch;
  const redirect = safeRedirect(search.redirect);
  const handoff = typeof search.handoff === 'string' ? search.handoff : null;
  const [options, setOptions] = useState<SsoOptions | null>(null);
  const [domain, setDomain] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(typeof search.error === 'string' ? search.error : null);
  useEffect(() => {
    document.title = `${t('sso.title')} - ${product.name}`;
  }, []);
  useEffect(() => {
    if (handoff) {
      apiFetch<{ access: string; password_expired?: boolean }>('/api/token/sso', { method: 'POST', body: { code: handoff }, silent: true })
        .then((answer) => {
          setToken(answer.access);
          return navigate({ href: redirect, replace: true } as never);
        })
        .catch((failure: unknown) => setError(messageOf(failure)));
      return;
    }
    apiFetch<SsoOptions>('/api/sso', { silent: true })
      .then(setOptions)
      .catch((failure: unknown) => setError(messageOf(failure)));
  }, [handoff, navigate, redirect]);

  const start = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const answer = await apiFetch<{ authorization_url: string }>('/api/sso/start', { method: 'POST', body: { ...(domain && { domain }), redirect }, silent: true });
      window.location.assign(answer.authorization_url);
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  };

  if (handoff && !error) return <p className="auth-form">{t('sso.signingIn')}</p>;
  return (
    <form className="auth-form" onSubmit={(event) => void start(event)} aria-labelledby="sso-heading">
      <h1 id="sso-heading">{t('sso.title')}</h1>
      {options && !options.enabled && <p>{t('sso.notConfigured')}</p>}
      {options?.enabled && <p>{t('sso.intro')}</p>}
      {options?.domain_required && (
        <label>
          {t('sso.domain')}
          <input type="text" name="domain" autoComplete="email" required value={domain} onChange={(event) => setDomain(event.target.value)} autoFocus />
        </label>
      )}
      {error && (
        <p className="auth-form__error" role="alert">
          {error}
        </p>
      )}
      {options?.enabled && (
        <ShellButton type="submit" loading={busy}>
          {t('sso.continue')}
        </ShellButton>
      )}
      <Link to="/login" search={{ redirect } as never} className="auth-form__link">
        {t('sso.usePassword')}
      </Link>
    </form>
  );
}
