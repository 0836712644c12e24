import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../app/http';
import { t } from '../../app/i18n/messages';
import type { PageProps } from '../../app/pageModules';
import { Badge, Card, ErrorState, PageHeader, Spinner } from '../../ui';
import './system/system.css';

type Counted = 'devices' | 'users' | 'adapters' | 'connections';
type LicenseResponse = {
  edition: string; licensee: string; modules: string[]; expires_at: string | null;
  limits?: Record<Counted, number | null>; usage?: Record<Counted, number>;
};
const counted: Counted[] = ['devices', 'users', 'adapters', 'connections'];

/** `/settings/license`: the edition, its modules, and what the company uses of what a license could limit. */
export function License(_props: PageProps) {
  // Read afresh here: the start-up copy in the session holds the modules only.
  const license = useQuery({ queryKey: ['configurations', 'license', 'page'], queryFn: () => apiFetch<LicenseResponse>('/configurations/license') });
  if (license.isError) return <ErrorState title={t('settings.license.loadError')} message={license.error.message} onRetry={() => void license.refetch()} />;
  if (!license.data) return <Spinner label={t('settings.loading')} />;
  const { edition, licensee, modules, expires_at: expiresAt, limits, usage } = license.data;
  return (
    <section className="settings-facts-page">
      <PageHeader title={t('settings.license.title')} description={t('settings.license.description')} />
      <Card title={t('settings.license.edition')}>
        <dl className="settings-facts">
          <div><dt>{t('settings.license.edition')}</dt><dd>{t(`settings.license.edition.${edition}`, {}, edition)}</dd></div>
          <div><dt>{t('settings.license.licensee')}</dt><dd>{licensee}</dd></div>
          <div><dt>{t('settings.license.expires')}</dt><dd>{expiresAt ?? t('settings.license.never')}</dd></div>
        </dl>
      </Card>
      <Card title={t('settings.license.modules')}>
        <ul className="settings-badges" aria-label={t('settings.license.modules')}>
          {modules.map((module) => <li key={module}><Badge tone="success">{t(`settings.license.module.${module}`, {}, module)}</Badge></li>)}
        </ul>
      </Card>
      {usage && (
        <Card title={t('settings.license.limits')}>
          <table className="settings-table">
            <thead><tr><th scope="col">{t('settings.license.counted')}</th><th scope="col">{t('settings.license.inUse')}</th><th scope="col">{t('settings.license.limit')}</th></tr></thead>
            <tbody>
              {counted.map((name) => (
                <tr key={name}>
                  <th scope="row">{t(`settings.license.counted.${name}`)}</th>
                  <td>{usage[name].toLocaleString()}</td>
                  <td>{limits?.[name] == null ? t('settings.license.unlimited') : limits[name]!.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
    </section>
  );
}
