import { Notice } from './Notice';

/** Single sign-on entry point; it skips the start-up load. No identity provider is configured in this release. */
export function Sso() {
  return (
    <Notice title="Single sign-on" linkTo="/login" linkLabel="Sign in with a password">
      <p>Single sign-on is not configured for this installation. Sign in with your username and password, or with LDAP.</p>
    </Notice>
  );
}
