import { Notice } from './Notice';

/** Shown after the server locked the account (too many failed sign-ins). */
export function Locked() {
  return (
    <Notice title="Account locked" linkTo="/login" linkLabel="Back to sign in">
      <p>Too many sign-in attempts failed, so this account is locked for 15 minutes. Try again later or ask an administrator to unlock it.</p>
    </Notice>
  );
}
