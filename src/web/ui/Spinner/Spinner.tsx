import { t } from '../../app/i18n/messages';
import './Spinner.css';

export type SpinnerSize = 'small' | 'medium' | 'large';
export type SpinnerProps = {
  size?: SpinnerSize;
  /** What is loading, read by screen readers; `null` hides the spinner from them (a parent already says it). */
  label?: string | null;
  className?: string;
};

/** A spinning ring; announced as a polite status unless its label is null. */
export function Spinner({ size = 'medium', label = t('ui.loading'), className }: SpinnerProps) {
  const classes = `ui-spinner ui-spinner--${size}${className ? ` ${className}` : ''}`;
  if (label === null) return <span className={classes} aria-hidden="true" />;
  return (
    <span role="status" className="ui-spinner__wrap">
      <span className={classes} aria-hidden="true" />
      <span className="ui-visually-hidden">{label}</span>
    </span>
  );
}
