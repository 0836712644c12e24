import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { product } from '../../../core/product';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { mainMenu, settingsMenu, visibleItems } from '../../app/shell/menu';
import { useSession } from '../../app/session/session';

/** Home (/ and /404): who is signed in, for which company, and the areas this user can open. */
export function Home() {
  const { user, company } = useSession();
  const permissions = user?.permissions ?? [];
  const areas = [...visibleItems(mainMenu, permissions), ...visibleItems(settingsMenu, permissions)].filter((item) => item.path !== '/');
  useEffect(() => {
    document.title = product.name;
    setBreadcrumb([{ label: 'Home' }]);
  }, []);
  return (
    <section className="home">
      <h1>Welcome{user ? `, ${user.first_name || user.name || user.username}` : ''}</h1>
      {company && <p className="home__company">{company.name}</p>}
      {areas.length > 0 ? (
        <>
          <h2>Open</h2>
          <ul className="home__areas">
            {areas.map((area) => (
              <li key={area.path}>
                <Link to={area.path}>{area.label}</Link>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>No area of the console is open to your account yet.</p>
      )}
    </section>
  );
}
