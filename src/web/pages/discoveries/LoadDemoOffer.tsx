import { t } from '../../app/i18n/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { Button, Card } from '../../ui';
import { demoStatusQuery, loadDemo } from './discoveriesApi';

/**
 * On an empty inventory: offers the demo data set (CSV exports of five systems, read by the real CSV adapter), so a
 * newcomer sees a correlated inventory within a minute. Hidden once anything was discovered.
 */
export function LoadDemoOffer() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const status = useQuery({ ...demoStatusQuery(), enabled: hasPermission('discoveries.start_discovery') });
  const load = useMutation({
    mutationFn: loadDemo,
    onSuccess: (discovery) => {
      notify('success', t('discoveries.demoDataSetWas'));
      void queryClient.invalidateQueries({ queryKey: ['discoveries'] });
      void queryClient.invalidateQueries({ queryKey: ['connections'] });
      void navigate({ to: '/discovery/detail/$discoveryId', params: { discoveryId: String(discovery.id) } });
    },
  });
  if (!status.data?.available) return null;
  return (
    <Card title={t('discoveries.tryCartographDemoData')}>
      <p>
        {t('discoveries.loadExportsDirectoryEdr')}
      </p>
      <Button loading={load.isPending} onClick={() => load.mutate()}>{t('discoveries.loadDemoData')}</Button>
    </Card>
  );
}
