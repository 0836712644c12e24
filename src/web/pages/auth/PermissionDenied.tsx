import { Notice } from './Notice';

/** Shown when an action (rather than a page) was refused for lack of permission. */
export function PermissionDenied() {
  return (
    <Notice title="Permission denied" linkTo="/" linkLabel="Go to Home">
      <p>You are not allowed to perform this action. Ask an administrator if you need it.</p>
    </Notice>
  );
}
