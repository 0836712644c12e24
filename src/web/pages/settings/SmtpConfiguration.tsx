import { useState } from 'react';
import type { PageProps } from '../../app/pageModules';
import { getSession } from '../../app/session/session';
import { TextInput } from '../../ui';
import { SettingsDocumentForm } from './avm/SettingsDocumentForm';
import { TestAction } from './outbound/TestAction';

/** `/settings/smtp-configuration`: the mail server of reports, actions and notifications, and a test e-mail. */
export function SmtpConfiguration(_props: PageProps) {
  const [recipient, setRecipient] = useState(getSession().user?.email ?? '');
  return (
    <SettingsDocumentForm schemaId="cartograph:settings/smtp-configuration" path="/configurations/smtp-configuration" changePermission="configurations.change_smtpconfiguration" savedMessage="SMTP settings saved.">
      <TestAction
        title="Send a test e-mail" description="Sends one message through the saved settings. Save your changes first."
        path="/configurations/smtp-configuration/test" permission="configurations.change_smtpconfiguration" buttonLabel="Send test e-mail"
        fields={<TextInput id="smtp-test-recipient" label="Recipient" type="email" value={recipient} onValueChange={setRecipient} />}
        body={() => ({ to: recipient.trim() })}
        successText={(answer) => `The test e-mail to ${String(answer.to)} was accepted by the server.`}
      />
    </SettingsDocumentForm>
  );
}
