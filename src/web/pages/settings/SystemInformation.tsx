import { useQuery } from '@tanstack/react-query';
import { t } from '../../app/i18n/messages';
import type { PageProps } from '../../app/pageModules';
import { hasPermission } from '../../app/session/session';
import { Card, ErrorState, PageHeader, Spinner } from '../../ui';
import { lastDiscoveryQuery, systemInformationQuery } from '../discoveries/discoveriesApi';
import { bytesText, durationText, shareOf } from './system/formatting';
import './system/system.css';

function Meter({ label, share }: { label: string; share: number }) {
  const percent = Math.round(share * 100);
  return (
    <div className="settings-meter" role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
      <div className="settings-meter__fill" style={{ width: `${percent}%` }} />
    </div>
  );
}

/**
 * `/settings/system-information`: the server's CPU and memory, its database, versions and uptime. Polled as spec §9
 * says: every 5 s while a discovery runs (quick-reload mode), otherwise every 45,000,000 ms.
 */
export function SystemInformation(_props: PageProps) {
  const last = useQuery({ ...lastDiscoveryQuery(), enabled: hasPermission('discoveries.view_discovery') });
  const system = useQuery(systemInformationQuery(last.data?.status === 1));
  if (system.isPending) return <Spinner label={t('settings.loading')} />;
  // Spec §8: a failure is logged only (the query did); the page says the readings are not there.
  if (!system.data) return <ErrorState title={t('settings.system.unavailable')} onRetry={() => void system.refetch()} />;
  const { cpu, memory, disk, database, versions, uptime } = system.data;
  return (
    <section className="settings-facts-page">
      <PageHeader title={t('settings.system.title')} description={t('settings.system.description')} />
      <div className="settings-panels">
        <Card title={t('settings.system.cpu')}>
          <dl className="settings-facts">
            <div><dt>{t('settings.system.model')}</dt><dd>{cpu.model}</dd></div>
            <div><dt>{t('settings.system.cores')}</dt><dd>{cpu.cores}</dd></div>
            <div><dt>{t('settings.system.load')}</dt><dd>{cpu.load_average.map((load) => load.toFixed(2)).join(' / ')}</dd></div>
          </dl>
          <Meter label={t('settings.system.loadShare')} share={Math.min(1, (cpu.load_average[0] ?? 0) / Math.max(1, cpu.cores))} />
        </Card>
        <Card title={t('settings.system.memory')}>
          <dl className="settings-facts">
            <div><dt>{t('settings.system.used')}</dt><dd>{t('settings.system.usedOf', { used: bytesText(memory.used), total: bytesText(memory.total), share: shareOf(memory.used, memory.total) })}</dd></div>
            <div><dt>{t('settings.system.free')}</dt><dd>{bytesText(memory.free)}</dd></div>
            <div><dt>{t('settings.system.process')}</dt><dd>{bytesText(memory.process_rss)}</dd></div>
            <div><dt>{t('settings.system.disk')}</dt><dd>{disk ? t('settings.system.diskFree', { free: bytesText(disk.free), total: bytesText(disk.total) }) : '-'}</dd></div>
          </dl>
          <Meter label={t('settings.system.memoryShare')} share={memory.total ? memory.used / memory.total : 0} />
        </Card>
        <Card title={t('settings.system.database')}>
          <dl className="settings-facts">
            <div><dt>{t('settings.system.engine')}</dt><dd>{t(`settings.system.engine.${database.engine}`, {}, database.engine)}</dd></div>
            <div><dt>{t('settings.system.databaseVersion')}</dt><dd>{database.version.split(' ').slice(0, 2).join(' ')}</dd></div>
            <div><dt>{t('settings.system.size')}</dt><dd>{database.size_bytes === undefined ? '-' : bytesText(database.size_bytes)}</dd></div>
          </dl>
        </Card>
        <Card title={t('settings.system.versions')}>
          <dl className="settings-facts">
            {Object.entries(versions).map(([name, version]) => <div key={name}><dt>{t(`settings.system.version.${name}`, {}, name)}</dt><dd>{version}</dd></div>)}
            <div><dt>{t('settings.system.processUptime')}</dt><dd>{durationText(uptime.process_seconds)}</dd></div>
            <div><dt>{t('settings.system.systemUptime')}</dt><dd>{durationText(uptime.system_seconds)}</dd></div>
          </dl>
        </Card>
      </div>
    </section>
  );
}
