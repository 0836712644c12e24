import { useState } from 'react';
import { t } from '../../app/i18n/messages';
import type { PageProps } from '../../app/pageModules';
import { getSession } from '../../app/session/session';
import { TextInput } from '../../ui';
import { SettingsDocumentForm } from './avm/SettingsDocumentForm';
import { TestAction } from './outbound/TestAction';

/** `/settings/smtp-configuration`: the mail server of reports, actions and notifications, and a test e-mail. */
export function SmtpConfiguration(_props: PageProps) {
  const [recipient, setRecipient] = useState(getSession().user?.email ?? '');
  return (
    <SettingsDocumentForm schemaId="cartograph:settings/smtp-configuration" path="/configurations/smtp-configuration" changePermission="configurations.change_smtpconfiguration" savedMessage={t('settings.smtp.saved')}>
      <TestAction
        title={t('settings.smtp.testTitle')} description={t('settings.smtp.testText')}
        path="/configurations/smtp-configuration/test" permission="configurations.change_smtpconfiguration" buttonLabel={t('settings.smtp.test')}
        fields={<TextInput id="smtp-test-recipient" label={t('settings.smtp.recipient')} type="email" value={recipient} onValueChange={setRecipient} />}
        body={() => ({ to: recipient.trim() })}
        successText={(answer) => t('settings.smtp.testSent', { to: String(answer.to) })}
      />
    </SettingsDocumentForm>
  );
}
