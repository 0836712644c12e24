import { t } from '../../app/i18n/messages';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { product } from '../../../core/product';
import { ApiError, apiFetch, useFieldErrors } from '../../app/http';
import { logout, setToken } from '../../app/session/session';
import { ShellButton } from '../../app/shell/ShellButton';
import { safeRedirect } from './safeRedirect';

const passwordCall = '/api/password';

function FieldMessages({ messages }: { messages?: string[] }) {
  return messages?.length ? <p className="field-error">{messages.join(' ')}</p> : null;
}

/** An expired password (or a generated first one) is replaced before anything else; then the user continues. */
export function PasswordExpired() {
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as { redirect?: unknown };
  const fieldErrors = useFieldErrors(passwordCall, ['old_password', 'new_password', 'non_field_errors']);
  const [form, setForm] = useState({ old_password: '', new_password: '', confirmation: '' });
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    document.title = `${t('auth.chooseNewPassword')} - ${product.name}`;
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (form.new_password !== form.confirmation) {
      setError(t('auth.passwordsDoNotMatch'));
      return;
    }
    setSaving(true);
    try {
      const answer = await apiFetch<{ access: string }>(passwordCall, { method: 'POST', body: { old_password: form.old_password, new_password: form.new_password } });
      setToken(answer.access);
      await navigate({ href: safeRedirect(search.redirect) } as never);
    } catch (failure) {
      // The client already notified an answered failure and stored its field errors; only a network failure is left.
      if (!(failure instanceof ApiError)) setError(failure instanceof Error ? failure.message : t('error.unknown'));
    } finally {
      setSaving(false);
    }
  };
  const update = (field: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [field]: event.target.value });

  return (
    <form className="auth-form" onSubmit={(event) => void submit(event)} aria-labelledby="password-expired-heading">
      <h1 id="password-expired-heading">{t('auth.chooseNewPassword')}</h1>
      <p>{t('auth.yourPasswordHasExpired')}</p>
      <label>
        {t('auth.currentPassword')}
        <input type="password" name="old_password" autoComplete="current-password" required value={form.old_password} onChange={update('old_password')} autoFocus />
      </label>
      <FieldMessages messages={fieldErrors.old_password} />
      <label>
        {t('auth.newPassword')}
        <input type="password" name="new_password" autoComplete="new-password" required value={form.new_password} onChange={update('new_password')} />
      </label>
      <FieldMessages messages={fieldErrors.new_password} />
      <label>
        {t('auth.confirmNewPassword')}
        <input type="password" name="confirmation" autoComplete="new-password" required value={form.confirmation} onChange={update('confirmation')} />
      </label>
      <FieldMessages messages={fieldErrors.non_field_errors} />
      {error && (
        <p className="auth-form__error" role="alert">
          {error}
        </p>
      )}
      <ShellButton type="submit" loading={saving}>
        {t('auth.changePassword')}
      </ShellButton>
      <ShellButton variant="link" onClick={() => logout({ redirect: '/' })}>
        {t('auth.signOut')}
      </ShellButton>
    </form>
  );
}
