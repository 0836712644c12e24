// The console's design system. Pages import from here; the login route imports single primitives by their own path
// (for example ui/Button/Button) so it does not pull in the table, dialog and virtualizer code.
export { Badge, AdapterStatusBadge, TaskStatusBadge, adapterStatusLook, adapterStatusLooks, taskStatusLook, taskStatusLooks, discoveryStatusLook, discoveryStatusLooks, type BadgeProps, type BadgeTone, type StatusLook } from './Badge/Badge';
export { Button, type ButtonProps, type ButtonSize, type ButtonVariant } from './Button/Button';
export { ButtonLink, type ButtonLinkProps } from './Button/ButtonLink';
export { Card, type CardProps } from './Card/Card';
export { Checkbox, type CheckboxProps } from './Checkbox/Checkbox';
export { Dialog, type DialogProps, type DialogSize } from './Dialog/Dialog';
export { EmptyState, type EmptyStateProps } from './EmptyState/EmptyState';
export { ErrorState, type ErrorStateProps } from './ErrorState/ErrorState';
export { Field, type FieldIds, type FieldProps } from './Field/Field';
export { PageHeader, type PageHeaderProps } from './PageHeader/PageHeader';
export { RelativeTime } from './RelativeTime';
export { Pagination, type PaginationProps } from './Pagination/Pagination';
export { pageCount, pageList, rangeText, type PageItem } from './Pagination/pageList';
export { Select, type SelectOption, type SelectProps } from './Select/Select';
export { Spinner, type SpinnerProps, type SpinnerSize } from './Spinner/Spinner';
export { Switch, type SwitchProps } from './Switch/Switch';
export { Table, type TableProps } from './Table/Table';
export { VirtualTable, type VirtualTableProps } from './Table/VirtualTable';
export { ariaSort, nextSort, orderingOf, sortOfOrdering, sortRows, type CellAlign, type SortDirection, type SortState, type SortValue, type TableColumn } from './Table/columns';
export { Tabs, type TabItem, type TabsProps } from './Tabs/Tabs';
export { Textarea, type TextareaProps } from './Textarea/Textarea';
export { TextInput, type TextInputProps } from './TextInput/TextInput';
export { Tooltip, type TooltipPlacement, type TooltipProps } from './Tooltip/Tooltip';
