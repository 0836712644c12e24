import Form from '@rjsf/core';
import type { RegistryFieldsType, RegistryWidgetsType, RJSFSchema } from '@rjsf/utils';
import { useMemo } from 'react';
import { widgets as formWidgets } from '../../../renderers/form/SchemaForm';
import { templates } from '../../../renderers/form/templates';
import { connectionValidator, errorSchemaOf } from './connectionValidator';
import { pathOfId, type ConnectionFormModel, type ConnectionValues } from './connectionModel';
import { ConnectionObjectTemplate, KeyValueField } from './formParts';
import { ExportedFromWidget } from './ExportedFromWidget';
import { FileUploadWidget } from './FileUploadWidget';
import { SecretWidget, type ConnectionFormContext, type FileUpload } from './SecretWidget';
import './connectionForm.css';

const widgets: RegistryWidgetsType = { ...formWidgets, secret: SecretWidget, file: FileUploadWidget, exportedFrom: ExportedFromWidget };
const connectionTemplates = { ...templates, ObjectFieldTemplate: ConnectionObjectTemplate };
const fields: RegistryFieldsType = { keyValue: KeyValueField };

export type SettingsFormProps = {
  model: ConnectionFormModel;
  values: ConnectionValues;
  /** `path` is the property the user changed (dotted), when RJSF says which. */
  onValuesChange: (values: ConnectionValues, path?: string) => void;
  onFieldBlur: (path: string, values: ConnectionValues) => void;
  /** Messages to show, by dotted path (`auth.client_secret`). */
  errors: Record<string, readonly string[]>;
  storedSecretIds: ReadonlySet<string>;
  /** The file an uploaded-file source sends to the upload endpoint on save. */
  upload?: FileUpload;
  disabled?: boolean;
  onSubmit?: () => void;
};

/**
 * The adapter's settings as a form in the console's RJSF theme: x-order and x-group sections from the renderer's
 * templates, auth variants as a choice between the oneOf branches by title, secrets as password inputs.
 * Validation is the page's: it passes the messages to show.
 */
export function SettingsForm({ model, values, onValuesChange, onFieldBlur, errors, storedSecretIds, upload, disabled = false, onSubmit }: SettingsFormProps) {
  const context: ConnectionFormContext = useMemo(() => ({ groups: model.groups, labels: model.labels, storedSecretIds, upload }), [model, storedSecretIds, upload]);
  return (
    <div className="schema-form connection-settings-form">
      <Form
        schema={model.schema as RJSFSchema}
        uiSchema={model.uiSchema}
        formData={values}
        validator={connectionValidator}
        templates={connectionTemplates}
        widgets={widgets}
        fields={fields}
        formContext={context}
        extraErrors={errorSchemaOf(errors)}
        noValidate
        noHtml5Validate
        showErrorList={false}
        disabled={disabled}
        onChange={(event, id) => onValuesChange(event.formData as ConnectionValues, id ? pathOfId(model, id) : undefined)}
        onBlur={(id) => {
          const path = pathOfId(model, id);
          if (path) onFieldBlur(path, values);
        }}
        onSubmit={() => onSubmit?.()}
      >
        <></>
      </Form>
    </div>
  );
}
