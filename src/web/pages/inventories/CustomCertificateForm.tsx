import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { formatDate } from '../../../core/dates';
import { ApiError } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Button, Card, ErrorState, PageHeader, Spinner, TextInput, Textarea } from '../../ui';
import { customCertificateQuery, saveCustomCertificate, type CustomCertificate, type CustomCertificateBody } from './certificateApi';
import { Facts } from './facts';
import './inventories.css';

const listPath = '/certificate-inventory/custom-certificate';
// As the server reads at most (1 MiB); a bigger file is refused here before it is sent.
const maximumFileBytes = 1_048_576;

function base64Of(bytes: ArrayBuffer): string {
  let binary = '';
  const view = new Uint8Array(bytes);
  for (let start = 0; start < view.length; start += 0x8000) binary += String.fromCharCode(...view.subarray(start, start + 0x8000));
  return btoa(binary);
}

/** What the stored certificate is, shown above the form when editing. */
function StoredCertificate({ certificate }: { certificate: CustomCertificate }) {
  return (
    <Card>
      <Facts entries={[
        ['Common name', certificate.common_name ?? certificate.subject],
        ['Issuer', certificate.issuer],
        ['Expires', formatDate(certificate.not_after)],
        ['Expiry', certificate.expiry_status],
        ['Chain', certificate.chain_verified ? 'Verified' : `Not verified: ${certificate.verification_error ?? 'unknown reason'}`],
        ['Weaknesses', certificate.weaknesses],
        ['Key', [certificate.key_algorithm, certificate.key_size].filter(Boolean).join(' ')],
        ['Signature', certificate.signature_algorithm],
        ['SHA-256 fingerprint', certificate.fingerprint_sha256],
        ['Certificates held', certificate.chain.map((link) => link.common_name ?? link.subject ?? link.fingerprint_sha256)],
      ]} />
    </Card>
  );
}

function Editor({ stored }: { stored: CustomCertificate | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<CustomCertificateBody>({ name: stored?.name ?? '', description: stored?.description ?? '' });
  const [pasted, setPasted] = useState('');
  const [file, setFile] = useState<{ name: string; base64: string } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const save = useMutation({
    mutationFn: () => {
      const certificate = file?.base64 ?? (pasted.trim() || undefined);
      return saveCustomCertificate(stored?.id ?? null, { ...form, ...(certificate && { certificate }), ...(file && { file_name: file.name }), ...(password && { password }) });
    },
    onSuccess: (saved) => {
      // The password served this one request: it is not kept in the page either.
      setPassword('');
      notify('success', `"${saved.name}" was saved.`);
      void queryClient.invalidateQueries({ queryKey: ['custom-certificates'] });
      void navigate({ to: listPath });
    },
  });
  const errors = save.error instanceof ApiError ? save.error.fieldErrors : {};
  const missing = !stored && !file && !pasted.trim();
  const choose = async (chosen: File | null) => {
    setFileError(null);
    setFile(null);
    if (!chosen) return;
    if (chosen.size > maximumFileBytes) {
      setFileError(`${chosen.name} is larger than 1 MiB; a certificate file is a few kilobytes.`);
      return;
    }
    setFile({ name: chosen.name, base64: base64Of(await chosen.arrayBuffer()) });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.name.trim() && !missing && !fileError) save.mutate();
  };
  return (
    <form className="custom-certificate-form" onSubmit={submit} noValidate>
      <TextInput label="Name" required value={form.name} onValueChange={(name) => setForm({ ...form, name })} error={errors.name ?? (form.name.trim() ? undefined : 'The Name field is required.')} />
      <Textarea label="Description" value={form.description} onValueChange={(description) => setForm({ ...form, description })} rows={2} error={errors.description} />
      <div className="ui-field">
        <label className="ui-field__label" htmlFor="custom-certificate-file">{stored ? 'Replace with a file' : 'Certificate file'}</label>
        <input id="custom-certificate-file" type="file" accept=".pem,.crt,.cer,.der,.p7b,.p7c,.pfx,.p12" onChange={(event) => void choose(event.target.files?.[0] ?? null)} />
        <p className="ui-field__message">PEM, DER, PKCS#7 (.p7b) or PKCS#12 (.pfx, .p12). Never a private key.</p>
        {fileError ? <p className="ui-field__error" role="alert">{fileError}</p> : null}
      </div>
      <Textarea label={file ? 'Or paste (a file is chosen: it is used)' : 'Or paste PEM text'} value={pasted} onValueChange={setPasted} rows={6} disabled={Boolean(file)}
        error={errors.certificate ?? (missing && save.isError ? 'Choose a file or paste a certificate.' : undefined)} />
      <TextInput label="PKCS#12 password" type="password" autoComplete="off" value={password} onValueChange={setPassword}
        error={errors.password} message="Only for a PKCS#12 file: used once to open it, never stored." />
      {save.error && !Object.keys(errors).length && <p className="inventory-error" role="alert">{save.error.message}</p>}
      <div className="query-builder__actions">
        <Button variant="secondary" onClick={() => void navigate({ to: listPath })}>Cancel</Button>
        <Button type="submit" loading={save.isPending} disabled={missing || Boolean(fileError)}>{stored ? 'Save' : 'Upload'}</Button>
      </div>
    </form>
  );
}

/** `/certificate-inventory/custom-certificate/create` and `/{id}/edit`: upload or paste a certificate, or rename one. */
export function CustomCertificateForm() {
  const params = useParams({ strict: false }) as { id?: string };
  const id = params.id ? Number(params.id) : null;
  const stored = useQuery({ ...customCertificateQuery(id ?? 0), enabled: id !== null });
  const title = id === null ? 'Add a custom certificate' : `Edit ${stored.data?.name ?? ''}`;
  useEffect(() => setBreadcrumb([{ label: 'Certificates', to: '/certificate-inventory' }, { label: 'Custom certificates', to: listPath }, { label: id === null ? 'Add' : stored.data?.name ?? String(id) }]), [id, stored.data?.name]);
  if (id !== null && stored.isPending) return <Spinner label="Loading the certificate" />;
  if (id !== null && stored.isError) return <ErrorState message={stored.error.message} onRetry={() => void stored.refetch()} />;
  return (
    <section className="inventory-page">
      <PageHeader title={title} description="It joins the certificate inventory, as a custom certificate, at the next discovery." />
      {stored.data ? <StoredCertificate certificate={stored.data} /> : null}
      <Editor key={stored.data?.id ?? 'new'} stored={stored.data ?? null} />
    </section>
  );
}
