import { t } from '../../app/i18n/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { apiFetch, useFieldErrors } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { useRuleForm } from '../../renderers/form/useRuleForm';
import { Badge, Button, Card, Spinner, TextInput } from '../../ui';

type Enrolment = { secret: string; otpauth_url: string };
const otpKey = ['/api/otp'] as const;

/** The enrolment's QR code as an SVG data URL: an image, so no markup is injected and no canvas is needed. */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** The ten recovery codes, shown this once: each signs in once in place of a code from the app. */
function RecoveryCodesStep({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const file = `data:text/plain;charset=utf-8,${encodeURIComponent(`${codes.join('\n')}\n`)}`;
  return (
    <div className="account-form">
      <p role="status">{t('account.oneTimePasswordsYou')}</p>
      <h3>{t('account.recoveryCodes')}</h3>
      <p>{t('account.recoveryCodesOnce')}</p>
      <ul className="account-otp__recovery" aria-label={t('account.recoveryCodes')}>
        {codes.map((code) => <li key={code}><code>{code}</code></li>)}
      </ul>
      <div className="account-form__actions">
        <a className="ui-button ui-button--secondary ui-button--medium" href={file} download="cartograph-recovery-codes.txt">{t('account.downloadRecoveryCodes')}</a>
        <Button onClick={onDone}>{t('account.savedRecoveryCodes')}</Button>
      </div>
    </div>
  );
}

function EnrolmentStep({ enrolment, onDone, onCancel }: { enrolment: Enrolment; onDone: () => void; onCancel: () => void }) {
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [qrCode, setQrCode] = useState<string | null>(null);
  const serverErrors = useFieldErrors('/api/otp/confirm', ['code']);
  const form = useRuleForm({ code: { label: t('account.code'), rules: 'required|digits:6' } }, serverErrors);
  useEffect(() => {
    void qrCodeDataUrl(enrolment.otpauth_url).then(setQrCode);
  }, [enrolment.otpauth_url]);

  // A wrong code is listed under the field.
  const verify = form.submitWith(async () => {
    const answer = await apiFetch<{ recovery_codes: string[] }>('/api/otp/confirm', { method: 'POST', body: { code: form.values.code } });
    setRecoveryCodes(answer.recovery_codes);
  });
  if (recoveryCodes) return <RecoveryCodesStep codes={recoveryCodes} onDone={onDone} />;

  return (
    <form className="account-form" onSubmit={verify} noValidate>
      <p>{t('account.scanCodeAuthenticatorApp')}</p>
      {qrCode ? <img className="account-otp__qr" src={qrCode} width={200} height={200} alt={t('account.qrCodeOneTime')} /> : <Spinner label={t('account.drawingQrCode')} />}
      <p>
        {t('account.cannotScanEnterKey')}{' '}<code className="account-otp__secret">{enrolment.secret}</code>
      </p>
      <TextInput id="account-otp-code" label={t('account.codeFromApp')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} required {...form.bind('code')} />
      <div className="account-form__actions">
        <Button type="submit" loading={form.saving}>{t('account.verifyTurn')}</Button>
        <Button variant="secondary" onClick={onCancel}>{t('account.cancel')}</Button>
      </div>
    </form>
  );
}

function DisableStep({ onDone }: { onDone: () => void }) {
  const serverErrors = useFieldErrors('/api/otp/disable', ['password']);
  const form = useRuleForm({ password: { label: t('account.password'), rules: 'required' } }, serverErrors);
  // A wrong password is listed under the field.
  const disable = form.submitWith(async () => {
    await apiFetch('/api/otp/disable', { method: 'POST', body: { password: form.values.password } });
    notify('success', t('account.oneTimePasswordsOff'));
    onDone();
  });
  return (
    <form className="account-form" onSubmit={disable} noValidate>
      <TextInput id="account-otp-password" type="password" label={t('account.yourPasswordTurnOne')} autoComplete="current-password" required {...form.bind('password')} />
      <div className="account-form__actions">
        <Button type="submit" variant="danger" loading={form.saving}>{t('account.turnOff')}</Button>
      </div>
    </form>
  );
}

/** One-time passwords: enrol an authenticator app (QR code, verify) or turn them off. */
export function OtpPanel() {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: otpKey, queryFn: () => apiFetch<{ enabled: boolean; recovery_codes_left?: number }>('/api/otp') });
  const setup = useMutation({ mutationFn: () => apiFetch<Enrolment>('/api/otp/setup', { method: 'POST' }) });
  const finish = () => {
    setup.reset();
    void queryClient.invalidateQueries({ queryKey: otpKey });
  };
  // Cancel forgets the enrolment on the server too, so the secret shown is never turned on later.
  const cancel = () => {
    void apiFetch('/api/otp/cancel', { method: 'POST' }).catch(() => undefined);
    setup.reset();
  };
  const enabled = status.data?.enabled === true;
  return (
    <Card
      title={t('account.oneTimePassword')}
      headingLevel={2}
      actions={status.data ? <Badge tone={enabled ? 'success' : 'neutral'}>{enabled ? t('account.on') : t('account.off')}</Badge> : null}
    >
      {status.isPending ? <Spinner label={t('account.loading')} /> : null}
      {status.isError ? <p role="alert">{t('account.oneTimePasswordStatus')}</p> : null}
      {status.data && enabled && status.data.recovery_codes_left !== undefined ? (
        <p>{t('account.recoveryCodesLeft', { count: status.data.recovery_codes_left })}</p>
      ) : null}
      {status.data && enabled ? <DisableStep onDone={finish} /> : null}
      {status.data && !enabled && !setup.data ? (
        <>
          <p>{t('account.askCodeFromAuthenticator')}</p>
          <Button loading={setup.isPending} onClick={() => setup.mutate()}>{t('account.setUp')}</Button>
        </>
      ) : null}
      {status.data && !enabled && setup.data ? <EnrolmentStep enrolment={setup.data} onDone={finish} onCancel={cancel} /> : null}
    </Card>
  );
}
