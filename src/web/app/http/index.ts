export { apiFetch, apiUpload, ApiError, retriedStatuses, type HttpMethod, type RequestOptions } from './client';
export { errorText, fieldErrorsOf } from './errorText';
export { clearFieldErrors, fieldErrorsFor, setFieldErrors, useFieldErrors, type FieldErrors } from './fieldErrors';
