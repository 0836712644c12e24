import { t } from '../../app/i18n/messages';
import { Link, useRouter, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { product } from '../../../core/product';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { mainMenu, menuLabel, settingsMenu, visibleItems } from '../../app/shell/menu';
import { useSession } from '../../app/session/session';

/** The route home hands over to when the user may see it: the default dashboard (spec §2, "Go to Home" goes there too). */
export const dashboardRoute = '/dashboard';
const viewDashboard = 'dashboards.view_dashboard';

/**
 * Home (/ and /404). A user who may view dashboards lands on the default dashboard: the visit is replaced, so Back
 * does not bounce through `/`. Everyone else sees who is signed in, for which company, and the areas they can open.
 */
export function Home() {
  const { user } = useSession();
  const router = useRouter();
  // Home is often reached by a redirect (a signed-in visit to /login): handing over while that navigation is still
  // settling can be lost, leaving a blank `/`, so the hand-over waits until the router is idle.
  const idle = useRouterState({ select: (state) => state.status === 'idle' });
  const handOver = user?.permissions?.includes(viewDashboard) ?? false;
  useEffect(() => {
    if (handOver && idle) void router.navigate({ to: dashboardRoute, replace: true } as never);
  }, [handOver, idle, router]);
  return handOver ? null : <Welcome />;
}

function Welcome() {
  const { user, company } = useSession();
  const permissions = user?.permissions ?? [];
  const areas = [...visibleItems(mainMenu, permissions), ...visibleItems(settingsMenu, permissions)].filter((item) => item.path !== '/');
  useEffect(() => {
    document.title = product.name;
    setBreadcrumb([{ label: t('system.home') }]);
  }, []);
  return (
    <section className="home">
      <h1>{user ? t('system.welcomeName', { name: user.first_name || user.name || user.username }) : t('system.welcome')}</h1>
      {company && <p className="home__company">{company.name}</p>}
      {areas.length > 0 ? (
        <>
          <h2>{t('system.open')}</h2>
          <ul className="home__areas">
            {areas.map((area) => (
              <li key={area.path}>
                <Link to={area.path}>{menuLabel(area)}</Link>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>{t('system.noAreaConsoleOpen')}</p>
      )}
    </section>
  );
}
