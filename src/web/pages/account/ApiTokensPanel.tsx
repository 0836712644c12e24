import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate } from '../../../core/dates/index.js';
import { apiFetch, useFieldErrors } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { useRuleForm } from '../../renderers/form/useRuleForm';
import { Button, Card, Dialog, EmptyState, Table, TextInput, type TableColumn } from '../../ui';

export type ApiToken = { id: number; name: string; created_at: string; expires_at: string | null; last_used_at: string | null };
const tokensKey = ['/api/tokens'] as const;
const dateTime = (value: string | null) => formatDate(value);

function CreateTokenForm({ onCreated }: { onCreated: (token: string) => void }) {
  const serverErrors = useFieldErrors('/api/tokens');
  const form = useRuleForm(
    {
      name: { label: 'Name', rules: 'required|max:100' },
      expires_in_days: { label: 'Expires In Days', rules: 'integer|between:1,3650' },
    },
    serverErrors,
  );
  const create = form.submitWith(async () => {
    const days = form.values.expires_in_days.trim();
    const created = await apiFetch<ApiToken & { token: string }>('/api/tokens', { method: 'POST', body: { name: form.values.name, ...(days && { expires_in_days: Number(days) }) } });
    form.reset();
    onCreated(created.token);
  });
  return (
    <form className="account-form account-form--inline" onSubmit={create} noValidate>
      <TextInput id="account-token-name" label="Token name" placeholder="Nightly export script" required {...form.bind('name')} />
      <TextInput id="account-token-days" label="Expires in days" message="Leave empty for a token that does not expire." inputMode="numeric" {...form.bind('expires_in_days')} />
      <div className="account-form__actions">
        <Button type="submit" loading={form.saving}>Create token</Button>
      </div>
    </form>
  );
}

/** API tokens for scripts: create (the token is shown once), list, revoke. */
export function ApiTokensPanel() {
  const queryClient = useQueryClient();
  const canView = hasPermission('authtoken.view_token');
  const tokens = useQuery({ queryKey: tokensKey, queryFn: () => apiFetch<ApiToken[]>('/api/tokens'), enabled: canView });
  const [shownToken, setShownToken] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [busy, setBusy] = useState(false);
  if (!canView) return null;

  const revoke = async () => {
    if (!revoking) return;
    setBusy(true);
    try {
      await apiFetch(`/api/tokens/${revoking.id}`, { method: 'DELETE' });
      notify('success', `The token "${revoking.name}" is revoked.`);
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: tokensKey });
    } catch {
      // Notified by the HTTP client.
    } finally {
      setBusy(false);
    }
  };
  const columns: TableColumn<ApiToken>[] = [
    { id: 'name', header: 'Name', cell: (token) => token.name },
    { id: 'created_at', header: 'Created', cell: (token) => dateTime(token.created_at) },
    { id: 'expires_at', header: 'Expires', cell: (token) => (token.expires_at ? dateTime(token.expires_at) : 'Never') },
    { id: 'last_used_at', header: 'Last used', cell: (token) => dateTime(token.last_used_at) },
    ...(hasPermission('authtoken.delete_token')
      ? [{ id: 'actions', header: 'Actions', align: 'end' as const, cell: (token: ApiToken) => <Button variant="danger" size="small" onClick={() => setRevoking(token)}>Revoke</Button> }]
      : []),
  ];

  return (
    <Card title="API tokens" headingLevel={2}>
      <p>Scripts exchange an API token for an access token at <code>POST /api/token/token</code>.</p>
      {hasPermission('authtoken.add_token') ? (
        <CreateTokenForm
          onCreated={(token) => {
            setShownToken(token);
            void queryClient.invalidateQueries({ queryKey: tokensKey });
          }}
        />
      ) : null}
      <Table
        caption="API tokens"
        columns={columns}
        rows={tokens.data ?? []}
        rowKey={(token) => token.id}
        loading={tokens.isPending}
        empty={<EmptyState title="No API tokens" description="Create one for each script that calls the API." />}
      />
      <Dialog
        open={shownToken !== null}
        onClose={() => setShownToken(null)}
        title="Your new API token"
        description="Copy it now: it is shown only once and cannot be read again."
        footer={
          <>
            <Button
              variant="secondary"
              onClick={() => void navigator.clipboard?.writeText(shownToken ?? '').then(() => notify('success', 'Copied.'), () => notify('warning', 'Copy it by hand.'))}
            >
              Copy
            </Button>
            <Button onClick={() => setShownToken(null)}>Done</Button>
          </>
        }
      >
        <code className="account-token__value" data-testid="new-api-token">{shownToken}</code>
      </Dialog>
      <Dialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        alert
        title="Revoke this token?"
        description={`Scripts using "${revoking?.name ?? ''}" stop working at once.`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setRevoking(null)}>Cancel</Button>
            <Button variant="danger" loading={busy} onClick={() => void revoke()}>Revoke</Button>
          </>
        }
      />
    </Card>
  );
}
