import { t } from '../../app/i18n/messages';
import { Notice } from './Notice';

/** Shown after the server locked the account (too many failed sign-ins). */
export function Locked() {
  return (
    <Notice title={t('locked.title')} linkTo="/login" linkLabel={t('login.back')}>
      <p>{t('locked.text')}</p>
      <p>{t('locked.whoToAsk')}</p>
    </Notice>
  );
}
