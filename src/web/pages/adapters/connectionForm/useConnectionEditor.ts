import { t } from '../../../app/i18n/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import connectionWriteSchema from '../../../../../schemas/api/connection-write.json';
import { validateValue } from '../../../../core/validation/index.js';
import { apiFetch, apiUpload, ApiError } from '../../../app/http';
import { navigateTo } from '../../../app/navigation';
import { notify } from '../../../app/notifications/notifications';
import type { ConnectionResponse, ConnectivityResponse } from '../connectionsApi';
import type { AdapterResponse } from './connectionFormApi';
import type { FileUpload } from './SecretWidget';
import { maskedSecret, optionsOfValues, settingsMessages, valueAt, withDefaults, type ConnectionFormModel, type ConnectionValues } from './connectionModel';

/** The connection's own fields, around the adapter's settings. */
export type GeneralValues = { name: string; description: string; enabled: boolean; connector: number | null };
export type TestOutcome = { kind: 'success' | 'failure' | 'notice'; title: string; detail: string };

const generalFields = new Set(['name', 'description', 'enabled', 'connector']);
// The server holds the same rules (x-rules of the connection body's schema).
const nameRules = connectionWriteSchema.properties.name['x-rules'];
const descriptionRules = connectionWriteSchema.properties.description['x-rules'];

type EditorInput = {
  adapter: AdapterResponse;
  model: ConnectionFormModel;
  connection?: ConnectionResponse;
  initialValues: ConnectionValues;
  /** Extra checks of a custom form (the network scanner's probe limits), by path. */
  extraMessages?: (values: ConnectionValues) => Record<string, string>;
};

/**
 * The state and actions of the connection form: values, client and server messages, test and save. Client messages
 * appear when a field loses focus and for every field on Save or Test; a server message stays until its field changes.
 */
export function useConnectionEditor({ adapter, model, connection, initialValues, extraMessages }: EditorInput) {
  const queryClient = useQueryClient();
  const [general, setGeneral] = useState<GeneralValues>({
    name: connection?.name ?? '', description: connection?.description ?? '', enabled: connection?.enabled ?? true, connector: connection?.connector ?? null,
  });
  const [values, setValues] = useState<ConnectionValues>(() => withDefaults(model, initialValues));
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const [dirty, setDirty] = useState(false);
  const [busy, setBusy] = useState<'save' | 'test' | null>(null);
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [uploaded, setUploaded] = useState<number | null>(null);
  const upload: FileUpload = useMemo(() => ({
    file, progress: uploaded,
    onChoose: (chosen) => {
      setFile(chosen);
      if (chosen) setDirty(true);
    },
  }), [file, uploaded]);

  // Secrets the API answered masked: their inputs start empty and keep the stored secret unless re-typed.
  const storedSecretIds = useMemo(
    () => new Set(model.secretPaths.filter((path) => valueAt(initialValues, path) === maskedSecret).map((path) => ['root', ...path].join('_'))),
    [model, initialValues],
  );

  const messagesFor = async (nextGeneral: GeneralValues, nextValues: ConnectionValues): Promise<Record<string, string>> => {
    const messages: Record<string, string> = {};
    const nameMessage = await validateValue(nextGeneral.name, nameRules, { field: t('adapters.name') });
    if (nameMessage) messages.name = nameMessage;
    const descriptionMessage = await validateValue(nextGeneral.description, descriptionRules, { field: t('adapters.description') });
    if (descriptionMessage) messages.description = descriptionMessage;
    const settings = await settingsMessages(model, nextValues);
    // A custom form's own check says precisely what is wrong (which target term); it follows the rule's message.
    for (const [path, message] of Object.entries(extraMessages?.(nextValues) ?? {})) settings[path] = settings[path] && settings[path] !== message ? `${settings[path]} ${message}` : message;
    return { ...messages, ...settings };
  };

  // A changed field's messages go (a server message about its children too) until it is checked again.
  const forget = (path: string) => {
    const stale = (key: string) => key === path || key.startsWith(`${path}.`);
    const without = <Messages extends Record<string, unknown>>(errors: Messages): Messages =>
      Object.keys(errors).some(stale) ? (Object.fromEntries(Object.entries(errors).filter(([key]) => !stale(key))) as Messages) : errors;
    setServerErrors(without);
    setClientErrors(without);
  };

  const changeGeneral = (changes: Partial<GeneralValues>) => {
    setGeneral((current) => ({ ...current, ...changes }));
    setDirty(true);
    for (const field of Object.keys(changes)) forget(field);
  };
  const changeValues = (next: ConnectionValues, path?: string) => {
    setValues(next);
    setDirty(true);
    if (path) forget(path);
  };
  /** On blur: the field's own message appears (or goes), other fields are left as they are. */
  const checkField = async (path: string, nextGeneral = general, nextValues = values) => {
    const messages = await messagesFor(nextGeneral, nextValues);
    setClientErrors((errors) => {
      const { [path]: _previous, ...rest } = errors;
      return messages[path] ? { ...rest, [path]: messages[path]! } : rest;
    });
  };
  /** Shows every message; a test needs only the settings (it names an unnamed connection after its adapter). */
  const checkAll = async (settingsOnly = false): Promise<boolean> => {
    const all = await messagesFor(general, values);
    const messages = settingsOnly ? Object.fromEntries(Object.entries(all).filter(([path]) => !generalFields.has(path) || path === 'description')) : all;
    setClientErrors(messages);
    const first = Object.keys(messages)[0];
    if (first) document.getElementById(generalFields.has(first) ? `connection-${first}` : `root_${first.replace(/\./g, '_')}`)?.focus();
    return !first;
  };

  const body = (name = general.name) => ({
    adapter: adapter.slug, name, description: general.description, enabled: general.enabled,
    ...(general.connector !== null && { connector: general.connector }), option_connections: optionsOfValues(values),
  });
  const showServerErrors = (error: unknown) => {
    if (error instanceof ApiError) setServerErrors(error.fieldErrors);
  };

  const save = async () => {
    if (!adapter.can_fetch || !(await checkAll())) return;
    setBusy('save');
    setServerErrors({});
    try {
      const saved = await apiFetch<ConnectionResponse>(connection ? `/adapters/connections/${connection.id}` : '/adapters/connections', { method: connection ? 'PUT' : 'POST', body: body() });
      if (file && !(await sendFile(saved))) return;
      await queryClient.invalidateQueries({ queryKey: ['connections'] });
      queryClient.setQueryData(['connection', saved.id], saved);
      setDirty(false);
      notify('success', connection ? t('adapters.nameWasSaved', { name: saved.name }) : t('adapters.nameWasCreated', { name: saved.name }));
      navigateTo(`/adapters/connections/${saved.id}`);
    } catch (error) {
      showServerErrors(error);
    } finally {
      setBusy(null);
    }
  };

  /**
   * Sends the chosen file to the saved connection's upload endpoint, showing its progress. A failed upload (its
   * notification already shown) leaves the saved connection's edit form open, where the upload can be tried again.
   */
  const sendFile = async (saved: ConnectionResponse): Promise<boolean> => {
    setUploaded(0);
    try {
      await apiUpload(`/adapters/connections/${saved.id}/file`, file!, { onProgress: setUploaded });
      setFile(null);
      return true;
    } catch {
      await queryClient.invalidateQueries({ queryKey: ['connections'] });
      if (!connection) navigateTo(`/adapters/connection/edit/${saved.id}`);
      return false;
    } finally {
      setUploaded(null);
    }
  };

  /**
   * Tests the saved connection while nothing changed, otherwise the values on screen (spec §7 POST /adapters/test);
   * an edit names its connection, whose stored secrets the server uses for those left as they were.
   */
  const test = async () => {
    if (!adapter.can_fetch) return;
    setOutcome(null);
    const unsaved = !connection || dirty;
    if (unsaved && !(await checkAll(true))) return;
    if (file) {
      setOutcome({ kind: 'notice', title: t('adapters.saveUploadFile'), detail: t('adapters.fileUploadedWhenConnectionSaved', { name: file.name }) });
      return;
    }
    setBusy('test');
    setServerErrors({});
    try {
      const result = unsaved
        ? await apiFetch<ConnectivityResponse>('/adapters/test', { method: 'POST', body: { ...body(general.name.trim() || adapter.name), ...(connection && { connection: connection.id }) }, silent: true })
        : await apiFetch<ConnectivityResponse>(`/adapters/test/${connection!.id}`, { method: 'POST', silent: true });
      if (!unsaved) void queryClient.invalidateQueries({ queryKey: ['connection', connection!.id] });
      setOutcome(result.success
        ? { kind: 'success', title: t('adapters.theConnectionWorks'), detail: result.detail ?? t('adapters.cartographReachedName', { name: adapter.name }) }
        : { kind: 'failure', title: result.reason ?? t('adapters.failed'), detail: result.detail ?? t('adapters.theConnectionFailed') });
    } catch (error) {
      showServerErrors(error);
      setOutcome({ kind: 'failure', title: t('adapters.request'), detail: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(null);
    }
  };

  const settingsErrors: Record<string, string[]> = {};
  const generalErrors: Record<string, string[]> = {};
  const otherErrors: Record<string, string[]> = {};
  for (const [path, message] of Object.entries(clientErrors)) (generalFields.has(path) ? generalErrors : settingsErrors)[path] = [message];
  for (const [path, messages] of Object.entries(serverErrors)) {
    const target = generalFields.has(path) ? generalErrors : path in (model.connectionSchema.properties ?? {}) || model.pathsById.has(`root_${path.replace(/\./g, '_')}`) ? settingsErrors : otherErrors;
    target[path] = [...(target[path] ?? []), ...messages.filter((message) => !target[path]?.includes(message))];
  }

  return { general, values, changeGeneral, changeValues, checkField, save, test, busy, outcome, dirty, storedSecretIds, upload, settingsErrors, generalErrors, otherErrors };
}
