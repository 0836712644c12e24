import { cloneElement, useEffect, useId, useState, type ReactElement, type ReactNode } from 'react';
import './Tooltip.css';

export type TooltipPlacement = 'top' | 'bottom' | 'left' | 'right';
export type TooltipProps = {
  content: ReactNode;
  /** One focusable element (a button, a link); it gets aria-describedby pointing at the tooltip. */
  children: ReactElement<{ 'aria-describedby'?: string }>;
  placement?: TooltipPlacement;
  /** Force the tooltip open (stories, tours); otherwise hover and keyboard focus open it. */
  open?: boolean;
};

/**
 * A short description shown while its trigger is hovered or focused (z-index 1100, spec §9). Escape hides it without
 * moving focus (WCAG 1.4.13), and screen readers read it as the trigger's description.
 */
export function Tooltip({ content, children, placement = 'top', open }: TooltipProps) {
  const tooltipId = `tooltip-${useId()}`;
  const [shown, setShown] = useState(false);
  const visible = open ?? shown;

  useEffect(() => {
    if (!shown) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setShown(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [shown]);

  const describedBy = [children.props['aria-describedby'], tooltipId].filter(Boolean).join(' ');
  return (
    <span className="ui-tooltip" onMouseEnter={() => setShown(true)} onMouseLeave={() => setShown(false)} onFocus={() => setShown(true)} onBlur={() => setShown(false)}>
      {cloneElement(children, { 'aria-describedby': describedBy })}
      <span id={tooltipId} role="tooltip" className={`ui-tooltip__bubble ui-tooltip__bubble--${placement}`} hidden={!visible}>
        {content}
      </span>
    </span>
  );
}
