import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiFetch } from '../../../app/http';
import { t } from '../../../app/i18n/messages';
import { navigateTo } from '../../../app/navigation';
import { notify } from '../../../app/notifications/notifications';
import { hasPermission } from '../../../app/session/session';
import { Button, Card, Dialog } from '../../../ui';
import { connectorListPath, connectorsPath, type ConnectorRecord, type IssuedConnector } from './connectorsApi';

type Pending = 'rotate' | 'revoke' | 'delete' | null;

/** Rotate (a new token, shown once), revoke (the connector is refused from now on) and delete, each confirmed first. */
export function ConnectorActions({ connector, onToken }: { connector: ConnectorRecord; onToken: (token: string) => void }) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);
  const url = `${connectorsPath}/${connector.id}`;
  const run = async () => {
    setBusy(true);
    try {
      if (pending === 'rotate') {
        const issued = await apiFetch<IssuedConnector>(`${url}/rotate`, { method: 'POST' });
        onToken(issued.token);
      } else if (pending === 'revoke') {
        await apiFetch(`${url}/revoke`, { method: 'POST' });
        notify('success', t('connectors.revokedNotice', { name: connector.name }));
      } else if (pending === 'delete') {
        await apiFetch(url, { method: 'DELETE' });
        notify('success', t('connectors.deletedNotice', { name: connector.name }));
        navigateTo(connectorListPath);
      }
      setPending(null);
      await queryClient.invalidateQueries({ queryKey: ['connectors'] });
    } catch {
      // Notified by the HTTP client, in the server's words (a connector still in use, for example).
    } finally {
      setBusy(false);
    }
  };
  const texts = {
    rotate: { title: t('connectors.rotateTitle'), description: t('connectors.rotateText'), button: t('connectors.rotate'), variant: 'warning' as const },
    revoke: { title: t('connectors.revokeTitle'), description: t('connectors.revokeText'), button: t('connectors.revoke'), variant: 'danger' as const },
    delete: { title: t('connectors.deleteTitle'), description: t('connectors.deleteText'), button: t('connectors.delete'), variant: 'danger' as const },
  };
  const shown = pending ? texts[pending] : null;
  return (
    <Card title={t('connectors.tokenCard')}>
      <p>{connector.token_state === 'revoked' ? t('connectors.tokenRevokedText') : t('connectors.tokenActiveText')}</p>
      <div className="connector-form__actions">
        <Button variant="warning" onClick={() => setPending('rotate')}>{connector.token_state === 'revoked' ? t('connectors.issue') : t('connectors.rotate')}</Button>
        {connector.token_state === 'active' && <Button variant="danger" onClick={() => setPending('revoke')}>{t('connectors.revoke')}</Button>}
        {hasPermission('connectors.delete_connector') && <Button variant="secondary" onClick={() => setPending('delete')}>{t('connectors.delete')}</Button>}
      </div>
      <Dialog
        open={shown !== null}
        onClose={() => setPending(null)}
        alert
        title={shown?.title ?? ''}
        description={shown?.description}
        footer={
          <>
            <Button variant="secondary" onClick={() => setPending(null)}>{t('connectors.cancel')}</Button>
            <Button variant={shown?.variant ?? 'danger'} loading={busy} onClick={() => void run()}>{shown?.button}</Button>
          </>
        }
      />
    </Card>
  );
}
