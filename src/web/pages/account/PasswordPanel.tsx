import { t } from '../../app/i18n/messages';
import { apiFetch, useFieldErrors } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { updateSession } from '../../app/session/session';
import { decodeToken, writeToken } from '../../app/session/tokenStore';
import { useRuleForm } from '../../renderers/form/useRuleForm';
import { Button, Card, TextInput } from '../../ui';

export const passwordCall = '/api/password';

/** Change password: current one, new one twice. The server answers a fresh token (the old one carries the old password's age). */
export function PasswordPanel({ isLdap }: { isLdap: boolean }) {
  const serverErrors = useFieldErrors(passwordCall, ['old_password', 'new_password']);
  const form = useRuleForm(
    {
      old_password: { label: t('account.currentPasswordField'), rules: 'required' },
      new_password: { label: t('account.newPasswordField'), rules: 'required|max:256' },
      confirmation: { label: t('account.newPasswordConfirmation'), rules: 'required|confirmed:new_password' },
    },
    serverErrors,
  );

  const submit = form.submitWith(async () => {
    const answer = await apiFetch<{ access: string }>(passwordCall, { method: 'POST', body: { old_password: form.values.old_password, new_password: form.values.new_password } });
    writeToken(answer.access);
    updateSession({ token: answer.access, decoded: decodeToken(answer.access) });
    form.reset();
    notify('success', t('account.yourPasswordHasBeen'));
  });

  if (isLdap) {
    return (
      <Card title={t('account.password')} headingLevel={2}>
        <p>{t('account.accountSignsThroughLdap')}</p>
      </Card>
    );
  }
  return (
    <Card title={t('account.changePassword')} headingLevel={2}>
      <form className="account-form" onSubmit={submit} noValidate>
        <TextInput id="account-old-password" type="password" label={t('account.currentPassword')} autoComplete="current-password" required {...form.bind('old_password')} />
        <TextInput id="account-new-password" type="password" label={t('account.newPassword')} autoComplete="new-password" required {...form.bind('new_password')} />
        <TextInput id="account-confirm-password" type="password" label={t('account.confirmNewPassword')} autoComplete="new-password" required {...form.bind('confirmation')} />
        <div className="account-form__actions">
          <Button type="submit" loading={form.saving}>{t('account.changePassword')}</Button>
        </div>
      </form>
    </Card>
  );
}
