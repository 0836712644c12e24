import type { ReactNode } from 'react';
import { product } from '../../../core/product';
import type { LayoutName } from '../routeTable';
import { ConsoleLayout } from './ConsoleLayout';
import { ThemeToggle } from './ThemeToggle';

/** The login layout: the product name above a centred card, no navigation. */
export function LoginLayout({ children }: { children: ReactNode }) {
  return (
    <div className="login-layout">
      <div className="login-layout__theme">
        <ThemeToggle />
      </div>
      <main className="login-layout__card">
        <div className="login-layout__brand">{product.name}</div>
        {children}
      </main>
    </div>
  );
}

/** The three layouts of spec §2. */
export function Layout({ name, children }: { name: LayoutName; children: ReactNode }) {
  if (name === 'login') return <LoginLayout>{children}</LoginLayout>;
  return <ConsoleLayout settings={name === 'settings'}>{children}</ConsoleLayout>;
}
