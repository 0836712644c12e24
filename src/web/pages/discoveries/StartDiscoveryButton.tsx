import { t } from '../../app/i18n/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { Button } from '../../ui';
import { startDiscovery } from './discoveriesApi';

/** Starts a discovery of every enabled connection and opens its progress; hidden without the permission. */
export function StartDiscoveryButton({ running }: { running: boolean }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const start = useMutation({
    mutationFn: startDiscovery,
    onSuccess: (discovery) => {
      notify('success', t('discoveries.discoveryIdStarted', { id: discovery.id }));
      void queryClient.invalidateQueries({ queryKey: ['discoveries'] });
      void navigate({ to: '/discovery/detail/$discoveryId', params: { discoveryId: String(discovery.id) } });
    },
  });
  if (!hasPermission('discoveries.start_discovery')) return null;
  return (
    <Button loading={start.isPending} disabled={running} onClick={() => start.mutate()}>
      {running ? t('discoveries.discoveryRunning') : t('discoveries.startDiscovery')}
    </Button>
  );
}
