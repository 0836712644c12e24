import { Fragment } from 'react';
import { dismiss, useNotifications } from './notifications';

/** The notification area, top right; line breaks in a text become breaks. */
export function NotificationArea() {
  const notifications = useNotifications();
  return (
    <div className="notification-area" role="region" aria-live="polite" aria-label="Notifications">
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
          <button type="button" className="notification__close" aria-label="Close notification" onClick={() => dismiss(notification.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
