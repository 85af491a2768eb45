// Printed documents of a saved profile: a payroll receipt's PDF or a photo of it (for buyers
// without the XML) and bank statements (for the self-employed). Unlike XML receipts, which the
// calculator reads in the page, these are read on the server (OCR), so the card says that they
// are sent; the server reads them off the request path and keeps the file only while reading.
// The card follows each reading until it ends and shows what it gave. Paper has no seal, so a
// print never verifies the profile: what it says is shown as read from paper, to confirm.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api } from '../api.js';
import { pesos } from './ui.jsx';

/** score-ocr's limit per file (10 MiB) and the files per request. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const DOCUMENTS_PER_UPLOAD = 12;
const ACCEPT = '.pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg';
/** How often the card asks whether the documents were read, and for how long at most. */
const POLL_MS = 1500;
const POLL_LIMIT = 120;

const ESTADOS = { leyendo: 'Leyendo…', leido: 'Leído', rechazado: 'No se pudo usar' };
/** A document's amounts as printed: with centavos. */
const money = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN', minimumFractionDigits: 2 });
/** What each failed check of a printed receipt means to the buyer. */
const CHECKS = {
  uuid_valido: 'no se leyó bien el folio fiscal',
  rfc_emisor_valido: 'no se leyó bien el RFC de tu empresa',
  rfc_receptor_valido: 'no se leyó bien tu RFC',
  percepciones_cuadran: 'las percepciones no suman su total',
  deducciones_cuadran: 'las deducciones no suman su total',
  neto_cuadra: 'el neto no cuadra con los totales',
  fechas_en_orden: 'las fechas del periodo no están en orden',
};

/** Why a printed receipt did not verify the profile, in the buyer's words. */
function notApplied(d) {
  const failed = Object.entries(d.comprobaciones ?? {})
    .filter(([, ok]) => ok === false)
    .map(([key]) => CHECKS[key] ?? key);
  return `No se aplicó a tu perfil: ${failed.join('; ') || 'no pasó las comprobaciones'}. Sube el XML del recibo o una foto más nítida.`;
}

/** Sends files in `field` (`recibos` or `estados_cuenta`); resolves to the 202 answer. */
export async function uploadDocuments(profileId, field, files) {
  const big = files.find((f) => f.size > MAX_DOCUMENT_BYTES);
  if (big) throw new Error(`${big.name}: pesa más de 10 MiB; sube una foto o un PDF más ligero.`);
  if (files.length > DOCUMENTS_PER_UPLOAD) throw new Error(`Sube hasta ${DOCUMENTS_PER_UPLOAD} archivos a la vez.`);
  const form = new FormData();
  for (const f of files) form.append(field, f, f.name);
  try {
    return (await api(`/api/v1/fase2/documentos/${encodeURIComponent(profileId)}`, { method: 'POST', body: form })).data;
  } catch (e) {
    // The server names the file at fault; the buyer needs its name, not the form's field.
    throw e instanceof ApiError && e.body.archivo ? new Error(`${e.body.archivo}: ${e.message}`) : e;
  }
}

/** One line on what a document gave. */
function outcome(l) {
  if (l.estado === 'leyendo') return 'Lo estamos leyendo; tarda unos segundos por página.';
  if (l.error) return l.error.mensaje;
  const d = l.documento;
  if (d?.tipo === 'estado_cuenta') {
    const checked = d.verificado ? 'los saldos cuadran' : 'los saldos no cuadran: revisa que sea el PDF de tu banco';
    return `Estado de cuenta de ${d.banco} del ${d.desde} al ${d.hasta}: depósitos por ${money.format(d.depositos)}; ${checked}.`;
  }
  if (d?.tipo === 'recibo_nomina') {
    const neto = `Recibo del ${d.fecha_inicial_pago} al ${d.fecha_final_pago}, neto ${money.format(d.neto)}`;
    // Attached, a print is still paper (no seal): the server's note says how to confirm it.
    if (l.aplicado) return `${neto}. ${l.nota ?? `Leído de papel: por confirmar con el XML o con el servicio del SAT con el UUID ${d.uuid}.`}`;
    return `${neto}. ${d.verificado ? (l.nota ?? '') : notApplied(d)}`;
  }
  return '';
}

function Lecturas({ lecturas }) {
  if (lecturas.length === 0) return null;
  return (
    <ul class="plain documents-list" data-testid="documents-list">
      {lecturas.map((l) => (
        <li data-testid="document" data-estado={l.estado}>
          <strong>{l.archivo ?? 'Documento'}</strong> · <span class={`badge badge-${l.estado}`}>{ESTADOS[l.estado] ?? l.estado}</span>
          <p>{outcome(l)}</p>
        </li>
      ))}
    </ul>
  );
}

function StatementsIncome({ ingreso }) {
  if (!ingreso) return null;
  const meses = ingreso.meses?.length ?? 0;
  return (
    <p data-testid="statements-income">
      {ingreso.ingreso_mensual === null
        ? `Con ${meses === 1 ? 'un estado de cuenta' : `${meses} estados de cuenta`} no alcanza para estimar tu ingreso: sube al menos 3 meses.`
        : `Tus estados de cuenta respaldan un ingreso de ${pesos.format(ingreso.ingreso_mensual)} al mes (depósitos de ${pesos.format(ingreso.depositos_elegibles_mensuales)} menos gastos del negocio). Lo verá el banco junto con tu perfil.`}
    </p>
  );
}

function Picker({ id, label, help, disabled, onFiles }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name={id}
        type="file"
        accept={ACCEPT}
        multiple
        disabled={disabled}
        aria-describedby={`${id}-ayuda`}
        onChange={(e) => {
          onFiles([...(e.currentTarget.files ?? [])]);
          e.currentTarget.value = '';
        }}
      />
      <small id={`${id}-ayuda`}>{help}</small>
    </div>
  );
}

/**
 * The card of a saved profile. `perfil` is GET /api/v1/perfil/{id}'s data; `onChanged(perfil)`
 * receives the profile again once its documents are read (a verified receipt rescores it).
 */
export function PrintedDocumentsCard({ perfil, onChanged }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const polls = useRef(0);
  const reading = perfil.lecturas?.some((l) => l.estado === 'leyendo');

  useEffect(() => {
    if (!reading) return undefined;
    if (polls.current >= POLL_LIMIT) return undefined;
    const timer = setTimeout(() => {
      polls.current += 1;
      api(`/api/v1/perfil/${encodeURIComponent(perfil.id)}`)
        .then((r) => onChanged(r.data))
        .catch(setError);
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [perfil, reading]);

  async function send(field, files) {
    if (files.length === 0) return;
    setBusy(true);
    setError(null);
    try {
      const accepted = await uploadDocuments(perfil.id, field, files);
      polls.current = 0;
      onChanged({ ...perfil, lecturas: [...accepted.lecturas, ...(perfil.lecturas ?? [])] });
    } catch (e) {
      setError(e.message ?? String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div class="card documents" data-testid="printed-documents">
      <h2>¿No tienes el XML? Sube el PDF o una foto</h2>
      <p class="help" data-testid="documents-privacy">
        Estos archivos se envían a nuestro servidor y se leen ahí (reconocimiento de texto); el archivo se borra en cuanto termina de leerse y
        solo guardamos lo que se leyó. Un recibo impreso no trae sello digital: sus datos se muestran como leídos de papel, por
        confirmar con su XML o en el servicio del SAT con su folio fiscal (UUID).
      </p>
      <Picker
        id="recibos-impresos"
        label="Recibos de nómina en PDF o foto"
        help="El PDF que te da tu empresa o una foto nítida de cada recibo (PDF, PNG o JPG, hasta 10 MiB)."
        disabled={busy}
        onFiles={(files) => send('recibos', files)}
      />
      <Picker
        id="estados-cuenta"
        label="Estados de cuenta (si trabajas por tu cuenta)"
        help="De 3 a 6 meses, en el PDF que descargas de tu banco."
        disabled={busy}
        onFiles={(files) => send('estados_cuenta', files)}
      />
      <div role="status" aria-live="polite" class="status" data-testid="documents-status">
        {busy && 'Enviando tus documentos…'}
        {!busy && reading && 'Leyendo tus documentos…'}
      </div>
      {error && (
        <div class="alert alert-error" role="alert" data-testid="documents-error">
          {error}
        </div>
      )}
      <Lecturas lecturas={perfil.lecturas ?? []} />
      <StatementsIncome ingreso={perfil.ingreso_estados_cuenta} />
    </div>
  );
}
