import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../app/http';
import { t } from '../../app/i18n/messages';
import { notify } from '../../app/notifications/notifications';
import type { PageProps } from '../../app/pageModules';
import { hasPermission } from '../../app/session/session';
import { GenericFormPage } from '../../renderers/form/GenericFormPage';
import { routeParams } from '../../renderers/form/routeParams';
import { Badge, Button, Card, Spinner } from '../../ui';

type SecondFactor = { enabled: boolean; recovery_codes_left: number };

/**
 * A user's second factor as an administrator sees it, with a reset for someone who lost the app and the recovery
 * codes: they then sign in with the password alone and may enrol again. The server records the reset as an activity.
 */
export function UserSecondFactorCard({ userId }: { userId: string }) {
  const path = `/users/users/${encodeURIComponent(userId)}/otp`;
  const queryClient = useQueryClient();
  // Silent: when the user cannot be loaded, the form above already says so; one notification, not two.
  const status = useQuery({ queryKey: [path], queryFn: () => apiFetch<SecondFactor>(path, { silent: true }) });
  const reset = useMutation({
    mutationFn: () => apiFetch(path, { method: 'DELETE' }),
    onSuccess: () => {
      notify('success', t('settings.user.secondFactorReset'));
      void queryClient.invalidateQueries({ queryKey: [path] });
    },
  });
  const enabled = status.data?.enabled === true;
  return (
    <Card
      title={t('settings.user.secondFactor')}
      headingLevel={2}
      actions={status.data ? <Badge tone={enabled ? 'success' : 'neutral'}>{enabled ? t('account.on') : t('account.off')}</Badge> : null}
    >
      {status.isPending ? <Spinner label={t('account.loading')} /> : null}
      {status.data ? <p>{enabled ? t('settings.user.secondFactorOn', { count: status.data.recovery_codes_left }) : t('settings.user.secondFactorOff')}</p> : null}
      {enabled && hasPermission('users.change_user') ? (
        <Button variant="danger" loading={reset.isPending} onClick={() => window.confirm(t('settings.user.confirmSecondFactorReset')) && reset.mutate()}>
          {t('settings.user.resetSecondFactor')}
        </Button>
      ) : null}
    </Card>
  );
}

/** The user form, and below it the user's second factor. */
export function UserEdit(props: PageProps) {
  const id = routeParams(props.route.path).id;
  return (
    <>
      <GenericFormPage {...props} />
      {id ? <UserSecondFactorCard userId={id} /> : null}
    </>
  );
}
