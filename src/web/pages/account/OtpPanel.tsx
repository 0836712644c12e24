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

function EnrolmentStep({ enrolment, onDone }: { enrolment: Enrolment; onDone: () => void }) {
  const [qrCode, setQrCode] = useState<string | null>(null);
  const serverErrors = useFieldErrors('/api/otp/confirm');
  const form = useRuleForm({ code: { label: 'Code', rules: 'required|digits:6' } }, serverErrors);
  useEffect(() => {
    void qrCodeDataUrl(enrolment.otpauth_url).then(setQrCode);
  }, [enrolment.otpauth_url]);

  // A wrong code is listed under the field.
  const verify = form.submitWith(async () => {
    await apiFetch('/api/otp/confirm', { method: 'POST', body: { code: form.values.code } });
    notify('success', 'One-time passwords are on. You will be asked for a code at sign-in.');
    onDone();
  });

  return (
    <form className="account-form" onSubmit={verify} noValidate>
      <p>Scan the code with an authenticator app, then enter the six-digit code it shows.</p>
      {qrCode ? <img className="account-otp__qr" src={qrCode} width={200} height={200} alt="QR code of the one-time password enrolment" /> : <Spinner label="Drawing the QR code" />}
      <p>
        Cannot scan? Enter this key by hand: <code className="account-otp__secret">{enrolment.secret}</code>
      </p>
      <TextInput id="account-otp-code" label="Code from the app" inputMode="numeric" autoComplete="one-time-code" maxLength={6} required {...form.bind('code')} />
      <div className="account-form__actions">
        <Button type="submit" loading={form.saving}>Verify and turn on</Button>
      </div>
    </form>
  );
}

function DisableStep({ onDone }: { onDone: () => void }) {
  const serverErrors = useFieldErrors('/api/otp/disable');
  const form = useRuleForm({ password: { label: 'Password', rules: 'required' } }, serverErrors);
  // A wrong password is listed under the field.
  const disable = form.submitWith(async () => {
    await apiFetch('/api/otp/disable', { method: 'POST', body: { password: form.values.password } });
    notify('success', 'One-time passwords are off.');
    onDone();
  });
  return (
    <form className="account-form" onSubmit={disable} noValidate>
      <TextInput id="account-otp-password" type="password" label="Your password, to turn one-time passwords off" autoComplete="current-password" required {...form.bind('password')} />
      <div className="account-form__actions">
        <Button type="submit" variant="danger" loading={form.saving}>Turn off</Button>
      </div>
    </form>
  );
}

/** One-time passwords: enrol an authenticator app (QR code, verify) or turn them off. */
export function OtpPanel() {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: otpKey, queryFn: () => apiFetch<{ enabled: boolean }>('/api/otp') });
  const setup = useMutation({ mutationFn: () => apiFetch<Enrolment>('/api/otp/setup', { method: 'POST' }) });
  const finish = () => {
    setup.reset();
    void queryClient.invalidateQueries({ queryKey: otpKey });
  };
  const enabled = status.data?.enabled === true;
  return (
    <Card
      title="One-time password"
      headingLevel={2}
      actions={status.data ? <Badge tone={enabled ? 'success' : 'neutral'}>{enabled ? 'On' : 'Off'}</Badge> : null}
    >
      {status.isPending ? <Spinner label="Loading" /> : null}
      {status.isError ? <p role="alert">The one-time password status could not be loaded.</p> : null}
      {status.data && enabled ? <DisableStep onDone={finish} /> : null}
      {status.data && !enabled && !setup.data ? (
        <>
          <p>Ask for a code from an authenticator app at every sign-in, on top of the password.</p>
          <Button loading={setup.isPending} onClick={() => setup.mutate()}>Set up</Button>
        </>
      ) : null}
      {status.data && !enabled && setup.data ? <EnrolmentStep enrolment={setup.data} onDone={finish} /> : null}
    </Card>
  );
}
