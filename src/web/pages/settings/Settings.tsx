import { Link } from '@tanstack/react-router';
import type { PageProps } from '../../app/pageModules';
import { t } from '../../app/i18n/messages';
import { useSession } from '../../app/session/session';
import { Card, EmptyState, PageHeader } from '../../ui';
import { overviewGroups, settingsOverview } from './overview/settingsOverview';
import './overview/overview.css';

/** `/settings`: every settings page the caller may open, grouped, each with what it is for. */
export function Settings(_props: PageProps) {
  const { user } = useSession();
  const entries = settingsOverview(user?.permissions ?? []);
  return (
    <section className="settings-overview">
      <PageHeader title={t('settings.overview.title')} description={t('settings.overview.description')} />
      {entries.length === 0 && <EmptyState title={t('settings.overview.empty')} />}
      {overviewGroups.map((group) => {
        const inGroup = entries.filter((entry) => entry.group === group);
        if (!inGroup.length) return null;
        return (
          <Card key={group} title={t(`settings.overview.group.${group}`)}>
            <ul className="settings-overview__list">
              {inGroup.map(({ route }) => (
                <li key={route.path} className="settings-overview__item">
                  <Link to={route.path} className="settings-overview__link">
                    {t(`menu.${route.path}`, {}, route.name)}
                  </Link>
                  <span className="settings-overview__description">{t(`settings.overview.page.${route.name}`, {}, '')}</span>
                </li>
              ))}
            </ul>
          </Card>
        );
      })}
    </section>
  );
}
