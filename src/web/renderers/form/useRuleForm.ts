import { useRef, useState, type FormEvent } from 'react';
import { validateValue } from '../../../core/validation/index.js';

export type RuleFields = Record<string, { label: string; rules?: string }>;

/** What a hand-written form binds to each field: value, error, change and blur handlers. */
export type RuleFieldBinding = { value: string; error: string | undefined; onValueChange: (value: string) => void; onBlur: () => void };

/**
 * State and validation of a small hand-written form with the shared rules (spec §5): a field is checked when it loses
 * focus and every field on submit, never while typing; typing clears the field's message. Server field errors are
 * passed in and shown until the field changes.
 */
export function useRuleForm<Field extends string>(fields: Record<Field, { label: string; rules?: string }>, serverErrors: Record<string, string[]> = {}) {
  const names = Object.keys(fields) as Field[];
  const [values, setValues] = useState<Record<Field, string>>(() => Object.fromEntries(names.map((name) => [name, ''])) as Record<Field, string>);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [changed, setChanged] = useState<ReadonlySet<Field>>(new Set());
  const latest = useRef(values);
  latest.current = values;
  const labels = Object.fromEntries(names.map((name) => [name, fields[name].label]));

  const messageOf = (name: Field, current: Record<Field, string>) => {
    const rules = fields[name].rules;
    return rules ? validateValue(current[name], rules, { field: fields[name].label, values: current, labels }) : Promise.resolve(null);
  };

  const bind = (name: Field): RuleFieldBinding => ({
    value: values[name],
    error: errors[name] ?? (changed.has(name) ? undefined : serverErrors[name]?.join(' ')),
    onValueChange: (value) => {
      setValues((current) => ({ ...current, [name]: value }));
      setChanged((current) => new Set([...current, name]));
      setErrors(({ [name]: _cleared, ...rest }) => rest as Partial<Record<Field, string>>);
    },
    onBlur: () => {
      void messageOf(name, latest.current).then((message) => setErrors((current) => ({ ...current, [name]: message ?? undefined })));
    },
  });

  /** Checks every field; answers true when all pass (and forgets which fields changed, so new server errors show). */
  const validateAll = async (): Promise<boolean> => {
    const found: Partial<Record<Field, string>> = {};
    for (const name of names) {
      const message = await messageOf(name, latest.current);
      if (message) found[name] = message;
    }
    setErrors(found);
    setChanged(new Set());
    return Object.keys(found).length === 0;
  };

  const reset = () => {
    setValues(Object.fromEntries(names.map((name) => [name, ''])) as Record<Field, string>);
    setErrors({});
    setChanged(new Set());
  };

  const [saving, setSaving] = useState(false);
  /**
   * A submit handler: checks every field, then runs `send` with `saving` true. A failed call is not rethrown: the
   * HTTP client has already notified it, and its field errors reach the fields through `serverErrors`.
   */
  const submitWith = (send: () => Promise<void>) => (event: FormEvent) => {
    event.preventDefault();
    void (async () => {
      if (!(await validateAll())) return;
      setSaving(true);
      try {
        await send();
      } catch {
        // Shown by the HTTP client and under the fields (see above).
      } finally {
        setSaving(false);
      }
    })();
  };

  return { values, bind, validateAll, reset, saving, submitWith };
}
