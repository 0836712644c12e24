import { t } from '../i18n/messages';
import { CommandPaletteButton } from '../palette/CommandPaletteButton';
import { Link, useLocation, useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { product } from '../../../core/product';
import { isPageBuilt } from '../pageModules';
import { routeByPath } from '../routeTable';
import { logout, useSession } from '../session/session';
import { Popover } from '../overlay/Popover';
import { Breadcrumb } from './Breadcrumb';
import { mainMenu, menuLabel, settingsMenu, visibleItems, type MenuItem } from './menu';
import { ThemeToggle } from './ThemeToggle';

// The menu-collapsed flag (spec §9) lives under its own key.
export const menuCollapsedKey = 'cartograph.menu-collapsed';

function MenuLinks({ items, collapsed, label }: { items: MenuItem[]; collapsed: boolean; label: string }) {
  return (
    <ul className="menu" aria-label={label}>
      {items.map((item) => (
        <li key={item.path}>
          <Link to={item.path} activeOptions={{ exact: item.path === '/' }} activeProps={{ 'aria-current': 'page', className: 'menu__link--active' }} className="menu__link" title={menuLabel(item)}>
            <span className="menu__initial" aria-hidden={!collapsed}>
              {menuLabel(item)[0]}
            </span>
            {!collapsed && <span className="menu__label">{menuLabel(item)}</span>}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The main menu: permission-aware; Settings leads to the first settings page the user may open. */
function mainItems(permissions: readonly string[]): MenuItem[] {
  const settings = visibleItems(settingsMenu, permissions);
  const settingsHome = routeByPath('/settings');
  return visibleItems(mainMenu, permissions, (path) => {
    const route = routeByPath(path);
    return path === '/settings' ? settings.length > 0 || (route !== undefined && isPageBuilt(route)) : route !== undefined && isPageBuilt(route);
  }).map((item) => (item.path === '/settings' && settingsHome && !isPageBuilt(settingsHome) ? { ...item, path: settings[0]?.path ?? item.path } : item));
}

function UserMenu() {
  const { user, company } = useSession();
  const navigate = useNavigate();
  const here = useLocation({ select: (location) => location.href });
  const accountRoute = routeByPath('/account-settings');
  // Signing in again leads back to the page signed out from (spec §8's redirect, as an expired session keeps it).
  const signOut = () => {
    logout();
    void navigate({ to: '/login', search: { redirect: here } } as never);
  };
  return (
    <Popover trigger={<span className="top-bar__user">{user?.name || user?.username}</span>} triggerLabel={t('shell.accountMenu')}>
      <div className="user-menu">
        <div className="user-menu__who">
          <strong>{user?.name || user?.username}</strong>
          <span>{company?.name}</span>
        </div>
        {accountRoute && isPageBuilt(accountRoute) && (
          <Link to="/account-settings" className="user-menu__item">
            {t('shell.accountSettings')}
          </Link>
        )}
        <button type="button" className="user-menu__item" onClick={signOut}>
          {t('shell.signOut')}
        </button>
      </div>
    </Popover>
  );
}

/** The default and settings layouts: navigation, top bar (breadcrumb, theme, user menu) and the page. */
export function ConsoleLayout({ children, settings }: { children: ReactNode; settings: boolean }) {
  const { user } = useSession();
  const permissions = user?.permissions ?? [];
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(menuCollapsedKey) === 'true');
  const toggle = () => {
    localStorage.setItem(menuCollapsedKey, String(!collapsed));
    setCollapsed(!collapsed);
  };
  return (
    <div className={`console${collapsed ? ' console--collapsed' : ''}`} data-layout={settings ? 'settings' : 'default'}>
      <nav className="console__nav" aria-label={t('shell.mainNavigation')}>
        <Link to="/" className="console__brand">
          {collapsed ? product.name[0] : product.name}
        </Link>
        <MenuLinks items={mainItems(permissions)} collapsed={collapsed} label={t('shell.mainMenu')} />
        <button type="button" className="shell-button console__collapse" onClick={toggle} aria-expanded={!collapsed}>
          {collapsed ? t('shell.expandMenu') : t('shell.collapseMenu')}
        </button>
      </nav>
      <div className="console__main">
        <header className="top-bar">
          <Breadcrumb settings={settings} />
          <span className="top-bar__spacer" />
          <CommandPaletteButton />
          <ThemeToggle />
          <UserMenu />
        </header>
        <div className="console__body">
          {settings && (
            <nav className="settings-menu" aria-label={t('shell.settings')}>
              <h2 className="settings-menu__title">{t('shell.settings')}</h2>
              <MenuLinks items={visibleItems(settingsMenu, permissions)} collapsed={false} label={t('shell.settingsMenu')} />
            </nav>
          )}
          <main className="console__page" id="main">
            {children}
          </main>
        </div>
      </div>
    </div>
  );
}
