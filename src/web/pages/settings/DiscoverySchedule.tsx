import { useQuery } from '@tanstack/react-query';
import { formatDate } from '../../../core/dates';
import { t } from '../../app/i18n/messages';
import type { PageProps } from '../../app/pageModules';
import { Card } from '../../ui';
import { SettingsDocumentForm, settingsDocumentQuery } from './avm/SettingsDocumentForm';

const path = '/configurations/discovery-schedule';

/** The next start times the server computed for the saved schedule (updated by each save). */
function NextRuns() {
  const schedule = useQuery(settingsDocumentQuery<{ enabled?: boolean; next_runs?: string[] }>(path));
  const runs = schedule.data?.next_runs ?? [];
  return (
    <Card title={t('settings.discoverySchedule.nextRuns')} headingLevel={2}>
      {runs.length ? (
        <ol className="settings-next-runs">{runs.map((run) => <li key={run}><time dateTime={run}>{formatDate(run)}</time></li>)}</ol>
      ) : (
        <p>{t('settings.discoverySchedule.noRuns')}</p>
      )}
    </Card>
  );
}

/** `/settings/discovery-schedule`: when discoveries start by themselves, and the next times they will. */
export function DiscoverySchedule(_props: PageProps) {
  return (
    <SettingsDocumentForm schemaId="cartograph:settings/discovery-schedule" path={path} changePermission="configurations.change_discoveryschedule" savedMessage={t('settings.discoverySchedule.saved')}>
      <NextRuns />
    </SettingsDocumentForm>
  );
}
