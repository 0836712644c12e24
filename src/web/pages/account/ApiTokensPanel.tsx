import { t } from '../../app/i18n/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate } from '../../../core/dates/index.js';
import { apiFetch, useFieldErrors } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { useRuleForm } from '../../renderers/form/useRuleForm';
import { Badge, Button, Card, Dialog, EmptyState, Select, Table, TextInput, type TableColumn } from '../../ui';

export type ApiToken = { id: number; name: string; created_at: string; expires_at: string | null; last_used_at: string | null };
const tokensKey = ['/api/tokens'] as const;
const dateTime = (value: string | null) => formatDate(value);

// Ninety days unless the user picks otherwise; "never" only by choosing it (issue 36).
const lifetimeChoices = [
  { value: '30', get label() { return t('account.lifetimeDays', { days: 30 }); } },
  { value: '90', get label() { return t('account.lifetimeDays', { days: 90 }); } },
  { value: '365', get label() { return t('account.lifetimeDays', { days: 365 }); } },
  { value: 'custom', get label() { return t('account.lifetimeCustomDate'); } },
  { value: 'never', get label() { return t('account.lifetimeNever'); } },
];

/** The end of a chosen local day, as the instant the server stores. */
const endOfDay = (date: string) => new Date(`${date}T23:59:59`).toISOString();

function CreateTokenForm({ onCreated }: { onCreated: (token: string) => void }) {
  // The lifetime is kept across tokens made one after another, so it lives beside the form's text fields.
  const [lifetime, setLifetime] = useState('90');
  const serverErrors = useFieldErrors('/api/tokens', ['name', 'expires_in_days', 'never_expires', ...(lifetime === 'custom' ? ['expires_at'] : [])]);
  const form = useRuleForm(
    {
      name: { label: t('account.name'), rules: 'required|max:100' },
      expires_on: { label: t('account.expiresOn'), rules: lifetime === 'custom' ? 'required' : '' },
    },
    serverErrors,
  );
  const create = form.submitWith(async () => {
    const choice = lifetime === 'never' ? { never_expires: true }
      : lifetime === 'custom' ? { expires_at: endOfDay(form.values.expires_on) }
      : { expires_in_days: Number(lifetime) };
    const created = await apiFetch<ApiToken & { token: string }>('/api/tokens', { method: 'POST', body: { name: form.values.name, ...choice } });
    form.reset();
    onCreated(created.token);
  });
  // The server names the field that asked (days, end or never); all of them are this form's lifetime choice.
  const lifetimeError = [...(serverErrors.expires_in_days ?? []), ...(serverErrors.never_expires ?? [])].join(' ') || undefined;
  const expiresOn = form.bind('expires_on');
  return (
    <form className="account-form account-form--inline" onSubmit={create} noValidate>
      <TextInput id="account-token-name" label={t('account.tokenName')} placeholder={t('account.nightlyExportScript')} required {...form.bind('name')} />
      <Select id="account-token-lifetime" label={t('account.lifetime')} options={lifetimeChoices} value={lifetime} onValueChange={setLifetime} error={lifetimeError}
        message={lifetime === 'never' ? t('account.neverExpiresWarning') : undefined} />
      {lifetime === 'custom' ? (
        <TextInput id="account-token-expires-on" type="date" label={t('account.expiresOn')} required {...expiresOn} error={expiresOn.error ?? serverErrors.expires_at?.join(' ')} />
      ) : null}
      <div className="account-form__actions">
        <Button type="submit" loading={form.saving}>{t('account.createToken')}</Button>
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
      notify('success', t('account.tokenNameRevoked', { name: revoking.name }));
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: tokensKey });
    } catch {
      // Notified by the HTTP client.
    } finally {
      setBusy(false);
    }
  };
  const columns: TableColumn<ApiToken>[] = [
    { id: 'name', header: t('account.name'), cell: (token) => token.name },
    { id: 'created_at', header: t('account.created'), cell: (token) => dateTime(token.created_at) },
    { id: 'expires_at', header: t('account.expires'), cell: (token) => (token.expires_at ? dateTime(token.expires_at) : <Badge tone="warning" title={t('account.neverExpiresWarning')}>{t('account.neverExpires')}</Badge>) },
    { id: 'last_used_at', header: t('account.lastUsed'), cell: (token) => dateTime(token.last_used_at) },
    ...(hasPermission('authtoken.delete_token')
      ? [{ id: 'actions', header: t('account.actions'), align: 'end' as const, cell: (token: ApiToken) => <Button variant="danger" size="small" onClick={() => setRevoking(token)}>{t('account.revoke')}</Button> }]
      : []),
  ];

  return (
    <Card title={t('account.apiTokens')} headingLevel={2}>
      <p>{t('account.scriptsExchangeApiToken')}{' '}<code>{t('account.postApiTokenToken')}</code>.</p>
      {hasPermission('authtoken.add_token') ? (
        <CreateTokenForm
          onCreated={(token) => {
            setShownToken(token);
            void queryClient.invalidateQueries({ queryKey: tokensKey });
          }}
        />
      ) : null}
      <Table
        caption={t('account.apiTokens')}
        columns={columns}
        rows={tokens.data ?? []}
        rowKey={(token) => token.id}
        loading={tokens.isPending}
        empty={<EmptyState title={t('account.noApiTokens')} description={t('account.createOneEachScript')} />}
      />
      <Dialog
        open={shownToken !== null}
        onClose={() => setShownToken(null)}
        title={t('account.yourNewApiToken')}
        description={t('account.copyNowShownOnly')}
        footer={
          <>
            <Button
              variant="secondary"
              onClick={() => void navigator.clipboard?.writeText(shownToken ?? '').then(() => notify('success', t('account.copied')), () => notify('warning', t('account.copyHand')))}
            >
              {t('account.copy')}
            </Button>
            <Button onClick={() => setShownToken(null)}>{t('account.done')}</Button>
          </>
        }
      >
        <code className="account-token__value" data-testid="new-api-token">{shownToken}</code>
      </Dialog>
      <Dialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        alert
        title={t('account.revokeThisToken')}
        description={t('account.scriptsUsingNameStop', { name: revoking?.name ?? '' })}
        footer={
          <>
            <Button variant="secondary" onClick={() => setRevoking(null)}>{t('account.cancel')}</Button>
            <Button variant="danger" loading={busy} onClick={() => void revoke()}>{t('account.revoke')}</Button>
          </>
        }
      />
    </Card>
  );
}
