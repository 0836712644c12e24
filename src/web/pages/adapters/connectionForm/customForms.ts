import type { ComponentType } from 'react';
import type { ConnectionValues } from './connectionModel';
import { NetworkScannerForm, scannerMessages } from './NetworkScannerForm';
import type { SettingsFormProps } from './SettingsForm';

/** A form of its own for an adapter's settings, with the checks it adds (by dotted path). */
export type CustomForm = { Form: ComponentType<SettingsFormProps>; extraMessages: (values: ConnectionValues) => Record<string, string> };

/** Adapters whose settings have a form of their own instead of the generic one (issue 4: the network scanner only). */
export const customForms: Partial<Record<string, CustomForm>> = { 'network-scanner': { Form: NetworkScannerForm, extraMessages: scannerMessages } };
