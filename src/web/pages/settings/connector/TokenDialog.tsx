import { t } from '../../../app/i18n/messages';
import { notify } from '../../../app/notifications/notifications';
import { Button, Dialog } from '../../../ui';

/** The connector's new token, shown once (after create or rotate) with the command that starts the connector. */
export function TokenDialog({ token, onClose }: { token: string | null; onClose: () => void }) {
  const command = `CARTOGRAPH_CONNECTOR_TOKEN=${token ?? ''} npm run connector -- --url ${window.location.origin}`;
  const copy = (text: string) =>
    void navigator.clipboard?.writeText(text).then(() => notify('success', t('connectors.copied')), () => notify('warning', t('connectors.copyByHand')));
  return (
    <Dialog
      open={token !== null}
      onClose={onClose}
      title={t('connectors.tokenTitle')}
      description={t('connectors.tokenOnce')}
      footer={
        <>
          <Button variant="secondary" onClick={() => copy(token ?? '')}>{t('connectors.copyToken')}</Button>
          <Button onClick={onClose}>{t('connectors.done')}</Button>
        </>
      }
    >
      <code className="connector-token__value" data-testid="connector-token">{token}</code>
      <p>{t('connectors.runWith')}</p>
      <pre className="connector-token__command">{command}</pre>
      <Button variant="ghost" size="small" onClick={() => copy(command)}>{t('connectors.copyCommand')}</Button>
    </Dialog>
  );
}
