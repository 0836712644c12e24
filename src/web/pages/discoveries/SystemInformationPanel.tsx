import { Card, Spinner } from '../../ui';
import type { SystemInformationResponse } from './discoveriesApi';

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
const share = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)}%` : '-');

/** CPU, memory, disk and versions of the server running the discovery. */
export function SystemInformationPanel({ system, loading }: { system: SystemInformationResponse | null; loading: boolean }) {
  return (
    <Card title="System information">
      {loading ? <Spinner label="Loading system information" /> : !system ? <p>System information is not available.</p> : (
        <dl className="discoveries-facts">
          <div><dt>CPU</dt><dd>{system.cpu.cores} cores · load {system.cpu.load_average.map((load) => load.toFixed(2)).join(' / ')}</dd></div>
          <div><dt>Memory</dt><dd>{gib(system.memory.used)} of {gib(system.memory.total)} used ({share(system.memory.used, system.memory.total)}) · Cartograph {gib(system.memory.process_rss)}</dd></div>
          <div><dt>Disk</dt><dd>{system.disk ? `${gib(system.disk.free)} free of ${gib(system.disk.total)}` : '-'}</dd></div>
          <div><dt>Database</dt><dd>{system.database.engine} {system.database.version.split(' ').slice(0, 2).join(' ')}</dd></div>
          <div><dt>Versions</dt><dd>{Object.entries(system.versions).map(([name, version]) => `${name} ${version}`).join(' · ')}</dd></div>
        </dl>
      )}
    </Card>
  );
}
