export { apiFetch, apiUpload, ApiError, retriedStatuses, type HttpMethod, type RequestOptions } from './client';
export { errorText, fieldErrorsOf, notificationText } from './errorText';
export { clearFieldErrors, fieldErrorsFor, isFieldShown, setFieldErrors, useFieldErrors, type FieldErrors } from './fieldErrors';
