import { t } from '../../app/i18n/messages';
import { Notice } from './Notice';

/** Where the permission guard sends a signed-in user who lacks a page's permission. */
export function Forbidden() {
  return (
    <Notice title={t('forbidden.title')} linkTo="/" linkLabel={t('common.goHome')}>
      <p>{t('forbidden.text')}</p>
      <p>{t('forbidden.whoToAsk')}</p>
    </Notice>
  );
}
