import { Fragment } from 'react';
import { t } from '../i18n/messages';
import { dismiss, useNotifications } from './notifications';

/** The notification area, top right; line breaks in a text become breaks. */
export function NotificationArea() {
  const notifications = useNotifications();
  return (
    <div className="notification-area" role="region" aria-live="polite" aria-label={t('notification.area')}>
      {notifications.map((notification) => (
        <div key={notification.id} className={`notification notification--${notification.kind}`} role={notification.kind === 'error' ? 'alert' : 'status'}>
          <div className="notification__title">{notification.title}</div>
          <div className="notification__text">
            {notification.text.split('\n').map((line, index) => (
              <Fragment key={index}>
                {index > 0 && <br />}
                {line}
              </Fragment>
            ))}
          </div>
          {notification.action && (
            <button
              type="button"
              className="shell-button notification__action"
              onClick={() => {
                dismiss(notification.id);
                notification.action?.onClick();
              }}
            >
              {notification.action.label}
            </button>
          )}
          <button type="button" className="notification__close" aria-label={t('notification.close')} onClick={() => dismiss(notification.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
