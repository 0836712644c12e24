import { t } from '../../app/i18n/messages';
import { Notice } from './Notice';

/** Shown when an action (rather than a page) was refused for lack of permission. */
export function PermissionDenied() {
  return (
    <Notice title={t('permissionDenied.title')} linkTo="/" linkLabel={t('common.goHome')}>
      <p>{t('permissionDenied.text')}</p>
      <p>{t('permissionDenied.whoToAsk')}</p>
    </Notice>
  );
}
