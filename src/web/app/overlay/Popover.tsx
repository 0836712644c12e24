import * as RadixPopover from '@radix-ui/react-popover';
import { useEffect, useRef, useState, type ReactNode } from 'react';

type PopoverProps = {
  /** The element that toggles the popover (rendered as the trigger button's content). */
  trigger: ReactNode;
  triggerLabel?: string;
  children: ReactNode;
  /** A non-dismissible popover closes only through its trigger or its own controls. */
  dismissible?: boolean;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
};

/**
 * A popover (spec §4, §9) on Radix: toggles on its trigger; closes on outside click, Escape, a scroll of anything
 * containing its target, or a window resize, unless non-dismissible. Appended to body; animations in shell.css.
 */
export function Popover({ trigger, triggerLabel, children, dismissible = true, open: controlled, onOpenChange }: PopoverProps) {
  const [uncontrolled, setUncontrolled] = useState(false);
  const open = controlled ?? uncontrolled;
  const setOpen = (next: boolean) => {
    if (controlled === undefined) setUncontrolled(next);
    onOpenChange?.(next);
  };
  const triggerRef = useRef<HTMLButtonElement>(null);
  const close = useRef(() => setOpen(false));
  close.current = () => setOpen(false);

  useEffect(() => {
    if (!open || !dismissible) return;
    const onScroll = (event: Event) => {
      const target = event.target;
      const anchor = triggerRef.current;
      // A scroll of the document or of any element that contains the trigger moves the target away.
      if (target === document || target === window || (target instanceof Node && anchor && target.contains(anchor))) close.current();
    };
    const onResize = () => close.current();
    window.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('scroll', onScroll, true);
      window.removeEventListener('resize', onResize);
    };
  }, [open, dismissible]);

  const keepOpen = (event: Event) => {
    if (!dismissible) event.preventDefault();
  };
  return (
    <RadixPopover.Root open={open} onOpenChange={setOpen}>
      <RadixPopover.Trigger ref={triggerRef} className="shell-button popover__trigger" aria-label={triggerLabel}>
        {trigger}
      </RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content className="popover" sideOffset={4} onEscapeKeyDown={keepOpen} onInteractOutside={keepOpen}>
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}
