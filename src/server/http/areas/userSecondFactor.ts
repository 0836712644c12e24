import { noteChange } from '../../activities/activityChanges.js';
import type { AppContext } from '../../context.js';
import { recoveryCodesLeft, removeSecondFactor } from '../../identity/recoveryCodes.js';
import { userById } from '../../identity/users.js';
import { callerOf, type RouteCatalogue } from '../routes.js';

/**
 * A user's second factor as an administrator sees it: whether it is on, and a reset for someone who lost both the
 * app and the recovery codes. The reset is a DELETE, so the activity log records who reset whose (`users.reset_otp`).
 */
export function registerUserSecondFactorRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  const statusOf = async (companyId: number, id: number) => {
    // userById answers 404 for a user of another company, so nobody learns about users they may not see.
    await userById(db, companyId, id);
    const [row] = await db.query<{ otp_secret: string | null }>('select otp_secret from users where id = $1', [id]);
    const enabled = row.otp_secret !== null;
    return { enabled, recovery_codes_left: enabled ? await recoveryCodesLeft(db, id) : 0 };
  };

  routes.add({
    method: 'GET', url: '/users/users/:id/otp', name: 'users.read_otp', summary: "Whether a user's second factor is on", access: 'users.view_user',
    params: 'cartograph:api/id-params',
    handler: async (request) => statusOf(callerOf(request).companyId, (request.params as { id: number }).id),
  });
  routes.add({
    method: 'DELETE', url: '/users/users/:id/otp', name: 'users.reset_otp', summary: "Reset a user's second factor (they sign in with the password alone, then may enrol again)",
    access: 'users.change_user', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const { id } = request.params as { id: number };
      const before = await statusOf(callerOf(request).companyId, id);
      await db.transaction((transaction) => removeSecondFactor(transaction, id));
      noteChange(request, { before: { otp_enabled: before.enabled }, after: { otp_enabled: false } });
    },
  });
}
