import { t } from '../../app/i18n/messages';
import Form from '@rjsf/core';
import type { ErrorSchema, RegistryWidgetsType } from '@rjsf/utils';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { validateValue } from '../../../core/validation/index.js';
import { Button } from '../../ui';
import { bodyOf, changedBodyOf, type FormModel } from './formSchema';
import { measureImage } from './measureImage';
import type { SchemaFormContext } from './formContext';
import { templates } from './templates';
import { firstErrorByField, transformErrorsWith } from './transformErrors';
import { formValidator, type PrecompiledFormValidator } from './validator';
import { AdaptersWidget } from './widgets/AdaptersWidget';
import { DateTimeWidget, DateWidget } from './widgets/DateWidget';
import { GroupsWidget } from './widgets/GroupsWidget';
import { PermissionsWidget } from './widgets/PermissionsWidget';
import { standardWidgets } from './widgets/standardWidgets';
import { UsersWidget } from './widgets/UsersWidget';
import './schemaForm.css';

export type { SchemaFormContext } from './formContext';
type Values = Record<string, unknown>;

export const widgets: RegistryWidgetsType = {
  ...standardWidgets,
  DateWidget,
  DateTimeWidget,
  permissions: PermissionsWidget,
  adapters: AdaptersWidget,
  groups: GroupsWidget,
  users: UsersWidget,
};

export type SchemaFormProps = {
  model: FormModel;
  initialValues?: Values;
  /** Sends the body; a rejection leaves the form as it is (the HTTP client has stored the server's field errors). */
  onSubmit: (body: Values) => Promise<unknown>;
  /** Field-level messages from the server for this form's call (spec §5: listed under their fields). */
  serverErrors?: Record<string, string[]>;
  submitLabel?: string;
  disabled?: boolean;
  /** Extra buttons beside the submit button (cancel, delete). */
  actions?: ReactNode;
  /** Validators for schemas outside src/generated/formValidators.js (adapter connection forms bring their own). */
  validator?: PrecompiledFormValidator;
  /** Editing: send only the fields that differ from `initialValues` (and the required ones). */
  sendChangedOnly?: boolean;
  /** Told every change of the values (a live preview beside the form). */
  onValuesChange?: (values: Values) => void;
};

// RJSF names controls `root_<field>`, nested ones `root_<field>_<child>`: the longest matching field wins.
function fieldOfId(fields: readonly string[], id: string): string | undefined {
  return fields.filter((field) => id === `root_${field}` || id.startsWith(`root_${field}_`) || id.startsWith(`root_${field}-`)).sort((left, right) => right.length - left.length)[0];
}

/**
 * A form rendered from an entity schema with our theme. Fields validate on blur (selects and checkboxes on change)
 * and all of them on submit, never while typing; a field's first failing check wins: its rule string first, then the
 * schema. The server's field errors are listed under their fields until the field is changed again.
 */
export function SchemaForm({ model, initialValues = {}, onSubmit, serverErrors = {}, submitLabel = t('renderers.save'), disabled = false, actions, validator = formValidator, sendChangedOnly = false, onValuesChange }: SchemaFormProps) {
  const [values, setValues] = useState<Values>(initialValues);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const [changedSinceSubmit, setChangedSinceSubmit] = useState<ReadonlySet<string>>(new Set());
  const [submitting, setSubmitting] = useState(false);
  const latest = useRef(values);
  latest.current = values;
  const transformErrors = useMemo(() => transformErrorsWith(model.labels), [model]);
  const context: SchemaFormContext = useMemo(() => ({ groups: model.groups, labels: model.labels }), [model]);

  const schemaErrors = (current: Values) =>
    firstErrorByField(validator.validateFormData(bodyOf(model, current, initialValues), model.schema, undefined, transformErrors).errors);

  const messageOf = async (field: string, current: Values, fromSchema: Record<string, string>): Promise<string | null> => {
    const rules = model.rules[field];
    const ruleMessage = rules ? await validateValue(current[field], rules, { field: model.labels[field] ?? field, values: current, labels: model.labels, measureImage }) : null;
    return ruleMessage ?? fromSchema[field] ?? null;
  };

  const validateField = async (field: string, current: Values) => {
    const message = await messageOf(field, current, schemaErrors(current));
    setClientErrors((errors) => {
      const { [field]: _previous, ...rest } = errors;
      return message ? { ...rest, [field]: message } : rest;
    });
  };

  const submit = async (current: Values) => {
    const fromSchema = schemaErrors(current);
    const errors: Record<string, string> = {};
    for (const field of model.fields) {
      const message = await messageOf(field, current, fromSchema);
      if (message) errors[field] = message;
    }
    setClientErrors(errors);
    const firstInvalid = model.fields.find((field) => field in errors);
    if (firstInvalid) {
      document.getElementById(`root_${firstInvalid}`)?.focus();
      return;
    }
    setChangedSinceSubmit(new Set());
    setSubmitting(true);
    try {
      const body = bodyOf(model, current, initialValues);
      await onSubmit(sendChangedOnly ? changedBodyOf(model, body, initialValues) : body);
    } catch {
      // The HTTP client has notified the user and stored the field errors this form lists.
    } finally {
      setSubmitting(false);
    }
  };

  const extraErrors: ErrorSchema = {};
  for (const field of model.fields) {
    const messages = [...(clientErrors[field] ? [clientErrors[field]] : []), ...(changedSinceSubmit.has(field) ? [] : (serverErrors[field] ?? []))];
    if (messages.length) (extraErrors as Record<string, { __errors: string[] }>)[field] = { __errors: messages };
  }
  const otherServerErrors = Object.entries(serverErrors).filter(([field]) => !model.fields.includes(field));

  return (
    <div className="schema-form">
      {otherServerErrors.length ? (
        <div className="schema-form__alert" role="alert">
          {otherServerErrors.map(([field, messages]) => <p key={field}>{field === 'non_field_errors' ? messages.join(' ') : `${model.labels[field] ?? field}: ${messages.join(' ')}`}</p>)}
        </div>
      ) : null}
      <Form
        schema={model.schema}
        uiSchema={model.uiSchema}
        formData={values}
        validator={validator}
        templates={templates}
        widgets={widgets}
        formContext={context}
        extraErrors={extraErrors}
        noValidate
        noHtml5Validate
        showErrorList={false}
        disabled={disabled || submitting}
        onChange={(event, id) => {
          setValues(event.formData as Values);
          onValuesChange?.(event.formData as Values);
          const field = id ? fieldOfId(model.fields, id) : undefined;
          if (!field) return;
          setChangedSinceSubmit((changed) => (changed.has(field) ? changed : new Set([...changed, field])));
          // Typing clears the field's message; it is checked again when the field loses focus.
          setClientErrors((errors) => {
            if (!(field in errors)) return errors;
            const { [field]: _cleared, ...rest } = errors;
            return rest;
          });
        }}
        onBlur={(id, value) => {
          const field = fieldOfId(model.fields, id);
          if (field) void validateField(field, { ...latest.current, [field]: value === '' ? undefined : value });
        }}
        onSubmit={(event) => void submit(event.formData as Values)}
      >
        <div className="schema-form__actions">
          <Button type="submit" loading={submitting} disabled={disabled}>
            {submitLabel}
          </Button>
          {actions}
        </div>
      </Form>
    </div>
  );
}
