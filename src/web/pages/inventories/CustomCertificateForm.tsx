import { t } from '../../app/i18n/messages';
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
        [t('inventories.commonName'), certificate.common_name ?? certificate.subject],
        [t('inventories.issuer'), certificate.issuer],
        [t('inventories.expires'), formatDate(certificate.not_after)],
        [t('inventories.expiry'), certificate.expiry_status],
        [t('inventories.chain'), certificate.chain_verified ? t('inventories.verified') : t('inventories.notVerifiedError', { error: certificate.verification_error ?? t('inventories.unknownReason') })],
        [t('inventories.weaknesses'), certificate.weaknesses],
        [t('inventories.key'), [certificate.key_algorithm, certificate.key_size].filter(Boolean).join(' ')],
        [t('inventories.signature'), certificate.signature_algorithm],
        [t('inventories.sha256Fingerprint'), certificate.fingerprint_sha256],
        [t('inventories.certificatesHeld'), certificate.chain.map((link) => link.common_name ?? link.subject ?? link.fingerprint_sha256)],
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
      notify('success', t('inventories.nameWasSaved', { name: saved.name }));
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
      setFileError(t('inventories.certificateFileTooLarge', { name: chosen.name }));
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
      <TextInput label={t('inventories.name')} required value={form.name} onValueChange={(name) => setForm({ ...form, name })} error={errors.name ?? (form.name.trim() ? undefined : t('inventories.nameFieldRequired'))} />
      <Textarea label={t('inventories.description')} value={form.description} onValueChange={(description) => setForm({ ...form, description })} rows={2} error={errors.description} />
      <div className="ui-field">
        <label className="ui-field__label" htmlFor="custom-certificate-file">{stored ? t('inventories.replaceFile') : t('inventories.certificateFile')}</label>
        <input id="custom-certificate-file" type="file" accept=".pem,.crt,.cer,.der,.p7b,.p7c,.pfx,.p12" onChange={(event) => void choose(event.target.files?.[0] ?? null)} />
        <p className="ui-field__message">{t('inventories.pemDerPkcs7')}</p>
        {fileError ? <p className="ui-field__error" role="alert">{fileError}</p> : null}
      </div>
      <Textarea label={file ? t('inventories.pasteFileChosenUsed') : t('inventories.pastePemText')} value={pasted} onValueChange={setPasted} rows={6} disabled={Boolean(file)}
        error={errors.certificate ?? (missing && save.isError ? t('inventories.chooseFilePasteCertificate') : undefined)} />
      <TextInput label={t('inventories.pkcs12Password')} type="password" autoComplete="off" value={password} onValueChange={setPassword}
        error={errors.password} message={t('inventories.onlyPkcs12File')} />
      {save.error && !Object.keys(errors).length && <p className="inventory-error" role="alert">{save.error.message}</p>}
      <div className="query-builder__actions">
        <Button variant="secondary" onClick={() => void navigate({ to: listPath })}>{t('inventories.cancel')}</Button>
        <Button type="submit" loading={save.isPending} disabled={missing || Boolean(fileError)}>{stored ? t('inventories.save') : t('inventories.upload')}</Button>
      </div>
    </form>
  );
}

/** `/certificate-inventory/custom-certificate/create` and `/{id}/edit`: upload or paste a certificate, or rename one. */
export function CustomCertificateForm() {
  const params = useParams({ strict: false }) as { id?: string };
  const id = params.id ? Number(params.id) : null;
  const stored = useQuery({ ...customCertificateQuery(id ?? 0), enabled: id !== null });
  const title = id === null ? t('inventories.addCustomCertificate') : t('inventories.editName', { name: stored.data?.name ?? '' });
  useEffect(() => setBreadcrumb([{ label: t('inventories.certificates'), to: '/certificate-inventory' }, { label: t('inventories.customCertificates'), to: listPath }, { label: id === null ? t('inventories.add') : stored.data?.name ?? String(id) }]), [id, stored.data?.name]);
  if (id !== null && stored.isPending) return <Spinner label={t('inventories.loadingTheCertificate')} />;
  if (id !== null && stored.isError) return <ErrorState message={stored.error.message} onRetry={() => void stored.refetch()} />;
  return (
    <section className="inventory-page">
      <PageHeader title={title} description={t('inventories.joinsCertificateInventoryCustom')} />
      {stored.data ? <StoredCertificate certificate={stored.data} /> : null}
      <Editor key={stored.data?.id ?? 'new'} stored={stored.data ?? null} />
    </section>
  );
}
