import { Link } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import { product } from '../../../core/product';
import { setBreadcrumb } from '../../app/shell/breadcrumb';

/** A short explanatory screen (locked, forbidden, permission denied, SSO) with one way forward. */
export function Notice({ title, children, linkTo, linkLabel }: { title: string; children: ReactNode; linkTo: string; linkLabel: string }) {
  useEffect(() => {
    document.title = `${title} - ${product.name}`;
    setBreadcrumb([{ label: title }]);
  }, [title]);
  return (
    <section className="auth-form notice" aria-labelledby="notice-heading">
      <h1 id="notice-heading">{title}</h1>
      {children}
      <Link to={linkTo} className="button button--success">
        {linkLabel}
      </Link>
    </section>
  );
}
