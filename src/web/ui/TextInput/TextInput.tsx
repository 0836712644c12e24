import { useEffect, useRef, useState, type InputHTMLAttributes } from 'react';
import { controlAttributes, Field, type TextControlProps } from '../Field/Field';

export type TextInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'defaultValue' | 'onChange' | 'type'> & TextControlProps & {
  /** onValueChange is called with the new text after this many ms of no typing (spec §5: input debounce, 0 ms by default). */
  debounce?: number;
  type?: 'text' | 'password' | 'email' | 'search' | 'number' | 'url' | 'tel' | 'date';
};

/**
 * A labelled text input with its message or error under it. Without a debounce it is a plain controlled input. With
 * one it shows every keystroke at once but reports the value only once typing pauses (search boxes); a new value
 * from the parent replaces the typed text.
 */
export function TextInput({ label, message, error, value, onValueChange, debounce = 0, required, id, type = 'text', className, ...rest }: TextInputProps) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const report = useRef(onValueChange);
  report.current = onValueChange;

  const reported = useRef(value);

  // A value set by the parent wins over typing still waiting for its debounce (a "Clear search" button); the echo of
  // a value this field reported itself is ignored, so keys typed since then are kept.
  useEffect(() => {
    if (value === reported.current) return;
    reported.current = value;
    clearTimeout(timer.current);
    setText(value);
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const change = (next: string) => {
    setText(next);
    clearTimeout(timer.current);
    const send = () => {
      reported.current = next;
      report.current(next);
    };
    if (debounce <= 0) send();
    else timer.current = setTimeout(send, debounce);
  };

  return (
    <Field label={label} message={message} error={error} required={required} id={id} className={className}>
      {(ids) => (
        <input
          {...rest}
          {...controlAttributes(ids, required)}
          type={type}
          className="ui-control ui-text-input"
          value={debounce > 0 ? text : value}
          onChange={(event) => change(event.target.value)}
        />
      )}
    </Field>
  );
}
