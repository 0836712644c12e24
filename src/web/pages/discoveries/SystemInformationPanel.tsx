import { t } from '../../app/i18n/messages';
import { Card, Spinner } from '../../ui';
import type { SystemInformationResponse } from './discoveriesApi';

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
const share = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)}%` : '-');

/** CPU, memory, disk and versions of the server running the discovery. */
export function SystemInformationPanel({ system, loading }: { system: SystemInformationResponse | null; loading: boolean }) {
  return (
    <Card title={t('discoveries.systemInformation')}>
      {loading ? <Spinner label={t('discoveries.loadingSystemInformation')} /> : !system ? <p>{t('discoveries.systemInformationNotAvailable')}</p> : (
        <dl className="discoveries-facts">
          <div><dt>{t('discoveries.cpu')}</dt><dd>{t('discoveries.coresCoresLoadLoad', { cores: system.cpu.cores, load_average: system.cpu.load_average.map((load) => load.toFixed(2)).join(' / ') })}</dd></div>
          <div><dt>{t('discoveries.memory')}</dt><dd>{t('discoveries.gibGib2UsedShare', { gib: gib(system.memory.used), gib2: gib(system.memory.total), share: share(system.memory.used, system.memory.total), gib3: gib(system.memory.process_rss) })}</dd></div>
          <div><dt>{t('discoveries.disk')}</dt><dd>{system.disk ? t('discoveries.diskFreeOfTotal', { free: gib(system.disk.free), total: gib(system.disk.total) }) : '-'}</dd></div>
          <div><dt>{t('discoveries.database')}</dt><dd>{system.database.engine} {system.database.version.split(' ').slice(0, 2).join(' ')}</dd></div>
          <div><dt>{t('discoveries.versions')}</dt><dd>{Object.entries(system.versions).map(([name, version]) => `${name} ${version}`).join(' · ')}</dd></div>
        </dl>
      )}
    </Card>
  );
}
