import { useState, type FormEvent, type ReactNode } from 'react';
import { apiFetch } from '../../../app/http';
import { notify } from '../../../app/notifications/notifications';
import { hasPermission } from '../../../app/session/session';
import { Button, Card } from '../../../ui';
import './outbound.css';

type Props = {
  title: string; description: string; path: string; permission: string; buttonLabel: string;
  /** Extra inputs (a recipient) and the body they make. */
  fields?: ReactNode; body?: () => object;
  successText: (answer: Record<string, unknown>) => string;
};

/**
 * A settings page's test button: POSTs to `path` with the saved configuration and shows what happened beside it. A
 * failure's detail (the server's own words) is shown here and notified by the HTTP client.
 */
export function TestAction({ title, description, path, permission, buttonLabel, fields, body, successText }: Props) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  if (!hasPermission(permission)) return null;
  const run = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await apiFetch<Record<string, unknown>>(path, { method: 'POST', body: body?.() ?? {} });
      setOutcome({ ok: true, text: successText(answer) });
      notify('success', successText(answer));
    } catch (error) {
      setOutcome({ ok: false, text: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={title}>
      <p>{description}</p>
      <form className="settings-test" onSubmit={run} noValidate>
        {fields}
        <Button type="submit" loading={busy}>{buttonLabel}</Button>
      </form>
      {outcome && <p role="status" className={outcome.ok ? 'settings-test__ok' : 'settings-test__error'}>{outcome.text}</p>}
    </Card>
  );
}
