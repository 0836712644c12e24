import { Notice } from './Notice';

/** Where the permission guard sends a signed-in user who lacks a page's permission. */
export function Forbidden() {
  return (
    <Notice title="Forbidden" linkTo="/" linkLabel="Go to Home">
      <p>Your account does not have permission to open this page. Ask an administrator to add the permission to one of your groups.</p>
    </Notice>
  );
}
