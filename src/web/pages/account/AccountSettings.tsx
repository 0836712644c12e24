import { t } from '../../app/i18n/messages';
import { useEffect } from 'react';
import { product } from '../../../core/product';
import { useSession } from '../../app/session/session';
import { PageHeader } from '../../ui';
import { ApiTokensPanel } from './ApiTokensPanel';
import { OtpPanel } from './OtpPanel';
import { PasswordPanel } from './PasswordPanel';
import './account.css';

/** /account-settings: the signed-in user's password, one-time password and API tokens (spec §2). */
export function AccountSettings() {
  const { user } = useSession();
  useEffect(() => {
    document.title = `${t('account.accountSettings')} - ${product.name}`;
  }, []);
  return (
    <section className="account-settings">
      <PageHeader title={t('account.accountSettings')} description={user ? (user.email ? t('account.signedInAsWithEmail', { username: user.username, email: user.email }) : t('account.signedInAs', { username: user.username })) : undefined} />
      <div className="account-settings__panels">
        <PasswordPanel isLdap={user?.is_ldap === true} />
        <OtpPanel />
        <ApiTokensPanel />
      </div>
    </section>
  );
}
