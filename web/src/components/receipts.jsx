// Payroll receipts (CFDI XML with the Nómina complement) in the buyer's journey: read in the
// page with score-docs' WebAssembly module, so the files never leave the device until the
// buyer chooses to send them, and the verification the server keeps for a saved profile.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { LABELS } from '../profile-fields.js';
import { decimal, pesos } from './ui.jsx';

/** Largest receipt (score-docs' own limit, 1 MiB) and files per request to the server. */
export const MAX_RECEIPT_BYTES = 1024 * 1024;
export const FILES_PER_UPLOAD = 12;

let docsModule = null;
/**
 * score-docs' WebAssembly module, loaded the first time a buyer drops a receipt, with the CA
 * certificates the server chains receipts to (GET /api/v1/ca-sat): a receipt the page counts as
 * verified is one the server verifies. Resolves to what reads receipts: a `CertificadosSat` of
 * the server's set, or the module itself (the SAT's CAs it carries) when the server cannot say.
 */
function loadDocs() {
  docsModule ??= import('score-docs-wasm').then(async (m) => {
    await m.default();
    try {
      const { certificados } = (await api('/api/v1/ca-sat')).data;
      return new m.CertificadosSat(certificados);
    } catch {
      return m;
    }
  });
  return docsModule;
}

/** Today in the buyer's time zone as YYYY-MM-DD (seniority is counted to it). */
function today() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The message of a score-docs error without its code, naming the file at fault. */
function receiptMessage(error, files) {
  const text = String(error?.message ?? error).replace(/^[A-Z_]+: /, '');
  const index = /^receipts\[(\d+)\]/.exec(error?.field ?? '')?.[1];
  const file = index !== undefined ? files[Number(index)] : null;
  return file ? `${file.name}: ${text}` : text;
}

/**
 * Reads the receipts in the page. Resolves to score-docs' verified profile
 * ({perfil, deudas_nomina, verificacion}); rejects with an Error whose message is the Spanish
 * text to show.
 */
export async function readReceipts(files) {
  const big = files.find((f) => f.size > MAX_RECEIPT_BYTES);
  if (big) throw new Error(`${big.name}: pesa más de 1 MiB; un recibo de nómina pesa unos pocos KB.`);
  const reader = await loadDocs();
  const data = await Promise.all(files.map((f) => f.arrayBuffer().then((b) => new Uint8Array(b))));
  try {
    return reader.profileFromCfdi(data, today());
  } catch (e) {
    throw new Error(receiptMessage(e, files));
  }
}

/** Sends the receipts to the server for a saved profile (in requests of 12 files). */
export async function uploadReceipts(profileId, files) {
  let last = null;
  for (let i = 0; i < files.length; i += FILES_PER_UPLOAD) {
    const form = new FormData();
    for (const f of files.slice(i, i + FILES_PER_UPLOAD)) form.append('recibos', f, f.name);
    last = (await api(`/api/v1/fase2/documentos/${encodeURIComponent(profileId)}`, { method: 'POST', body: form })).data;
  }
  return last;
}

/** The value of a verified field as the form shows it. */
export function formText(key, value) {
  return value === undefined || value === null ? '' : String(value);
}

function show(key, value) {
  if (value === undefined || value === null) return 'nada';
  if (key === 'ingreso_mensual' || key === 'deudas_mensuales') return pesos.format(value);
  if (key === 'antiguedad_meses') return `${decimal.format(value)} meses`;
  return String(value);
}

/** Why a receipt's seal does not verify it (score-docs' `sello.motivo`), in the buyer's words. */
export const SEAL_FAILURES = {
  SELLO_INVALIDO: 'su sello digital no corresponde al recibo: se modificó después de sellarse',
  SIN_SELLO: 'no trae sello digital',
  CERTIFICADO_NO_CORRESPONDE: 'su certificado no es el de la empresa que lo emite',
  CERTIFICADO_VENCIDO: 'su certificado no estaba vigente en la fecha del recibo',
  SIN_TIMBRE: 'no trae el timbre fiscal del SAT',
  IMPRESO: 'es un recibo impreso: el papel no trae sello digital',
  // The seal verifies, but its certificate is not chained to a SAT CA (score-docs' `sello.ca_sat_motivo`).
  AC_DESCONOCIDA: 'su sello es correcto, pero su certificado no lo emitió el SAT: cualquiera puede hacer uno con el RFC de una empresa',
  FIRMA_AC_INVALIDA: 'su certificado imita el nombre del SAT, pero el SAT no lo firmó',
  AC_VENCIDA: 'la autoridad certificadora del SAT que emitió su certificado no estaba vigente en la fecha del recibo',
  ALGORITMO_NO_ADMITIDO: 'su certificado está firmado con un algoritmo que no se acepta',
};

/**
 * Receipts that prove nothing (`[{recibo, motivo}]`): a broken seal (its code) or a valid seal by a
 * certificate no SAT CA issued (the chain's code, e.g. AC_DESCONOCIDA). What they prove does not
 * count as verified.
 */
function SealFailures({ failed }) {
  if (!failed?.length) return null;
  return (
    <div class="alert alert-warning" data-testid="receipts-seal-failed">
      <p>
        {failed.length === 1 ? 'Un recibo no pasó' : `${failed.length} recibos no pasaron`} la revisión del sello digital; lo que{' '}
        {failed.length === 1 ? 'prueba' : 'prueban'} no cuenta como verificado:
      </p>
      <ul class="notes">
        {failed.map((f) => (
          <li data-motivo={f.motivo}>
            <code>{f.recibo}</code>: {SEAL_FAILURES[f.motivo] ?? f.motivo} (<code>{f.motivo}</code>).
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The drop zone and what the receipts proved. `onRead(profile, files)` receives score-docs'
 * profile and the files; `onClear()` forgets them.
 */
export function ReceiptsCard({ verified, onRead, onClear }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const [over, setOver] = useState(false);

  async function take(fileList) {
    const files = [...fileList];
    if (files.length === 0) return;
    setBusy(true);
    setError(null);
    try {
      onRead(await readReceipts(files), files);
    } catch (e) {
      setError(e.message ?? String(e));
    } finally {
      setBusy(false);
    }
  }

  const v = verified?.profile.verificacion;
  const checks = v?.comprobaciones;
  return (
    <div class="card receipts" data-testid="receipts">
      <h2>Verifica tus ingresos con tus recibos de nómina</h2>
      <p class="help" data-testid="receipts-privacy">
        Tus recibos (los XML de tu nómina timbrada) se leen aquí, en tu navegador: los archivos no salen de tu dispositivo. Solo si
        lo decides al guardar tu perfil se envían para dejarlo verificado.
      </p>
      <div
        class={`dropzone${over ? ' dropzone-over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          take(e.dataTransfer?.files ?? []);
        }}
      >
        <label for="recibos">Arrastra aquí tus recibos XML o elígelos</label>
        <input
          id="recibos"
          name="recibos"
          type="file"
          accept=".xml,text/xml,application/xml"
          multiple
          aria-describedby="recibos-ayuda"
          onChange={(e) => {
            take(e.currentTarget.files ?? []);
            e.currentTarget.value = '';
          }}
        />
        <small id="recibos-ayuda">Los de los últimos meses de tu empleo actual; mientras más recibos, mejor se ve tu ingreso.</small>
      </div>
      <div role="status" aria-live="polite" class="status" data-testid="receipts-status">
        {busy && 'Leyendo tus recibos…'}
        {!busy && v && `${v.recibos === 1 ? 'Un recibo leído' : `${v.recibos} recibos leídos`}, del ${v.periodo.desde} al ${v.periodo.hasta}.`}
      </div>
      {error && (
        <div class="alert alert-error" role="alert" data-testid="receipts-error">
          {error}
        </div>
      )}
      {v && (
        <div data-testid="receipts-summary">
          <p>
            Datos verificados: {v.campos.filter((c) => c !== 'estado').map((c) => LABELS[c] ?? c).join(', ') || 'ninguno'}. Patrón: {v.emisor_rfc}.
          </p>
          <SealFailures failed={checks.sellos_invalidos} />
          <ul class="notes">
            {!checks.periodos_sin_huecos && <li>Hay periodos sin recibo entre {checks.huecos.map((h) => `${h.despues_de} y ${h.antes_de}`).join(', ')}.</li>}
            {!checks.patron_constante && <li>Cambiaste de patrón ({checks.cambios_de_patron.map((c) => `${c.fecha}: ${c.nuevo}`).join(', ')}); el ingreso es el del patrón actual.</li>}
            {!checks.uuids_sin_duplicar && <li>Algunos recibos estaban repetidos; cada uno cuenta una vez.</li>}
            {checks.recibos_sin_timbre > 0 && <li>{checks.recibos_sin_timbre} recibo(s) sin timbre del SAT.</li>}
            {v.notas.map((n) => (
              <li>{n}</li>
            ))}
            {verified.profile.perfil.estado && <li>Tus recibos indican que trabajas en {verified.profile.perfil.estado}; el estado del perfil sigue siendo donde quieres comprar.</li>}
          </ul>
          <button type="button" class="link-button" onClick={onClear}>
            Quitar mis recibos
          </button>
        </div>
      )}
    </div>
  );
}

/** What the form shows beside a field the receipts proved: verified, or what they say. */
export function verifiedNote(verified, key, current) {
  const value = verified?.profile.perfil[key];
  if (value === undefined || key === 'estado') return null;
  if (formText(key, value) === String(current ?? '').trim()) return { verified: true, text: 'Verificado con tus recibos de nómina.' };
  return { verified: false, text: `Tus recibos indican ${show(key, value)}.` };
}

/** The SAT's service that confirms a CFDI by its UUID and RFCs. */
const SAT_SERVICE = 'https://verificacfdi.facturaelectronica.sat.gob.mx/';

/** Fields read from printed receipts: their values, never verified, and how to confirm them. */
function ReadFromPaper({ verificacion }) {
  const campos = verificacion.campos_impresos ?? [];
  if (campos.length === 0) return null;
  const values = verificacion.perfil_impreso ?? {};
  const prints = verificacion.comprobacion.por_confirmar ?? [];
  return (
    <div data-testid="read-from-paper">
      <h3>Leído de papel, sin verificar</h3>
      <p>
        {campos.map((k) => `${LABELS[k] ?? k}: ${show(k, values[k])}`).join('; ')}. Un recibo impreso no trae sello digital: estos datos
        no cambian tu perfil hasta que subas el XML de {prints.length === 1 ? 'ese recibo' : 'esos recibos'} o los confirmes en el{' '}
        <a href={SAT_SERVICE} target="_blank" rel="noopener noreferrer">
          servicio de verificación del SAT
        </a>{' '}
        con su folio fiscal (UUID):
      </p>
      <ul class="notes" data-testid="to-confirm">
        {prints.map((p) => (
          <li>
            UUID <code>{p.uuid ?? p.recibo}</code>, RFC emisor {p.emisor_rfc}, RFC receptor {p.receptor_rfc}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Where a receipt on file was read from (`fuente`). */
const SOURCES = { xml: 'XML', pdf: 'PDF impreso', ocr: 'foto o escaneo', qr: 'impreso, por su código QR' };

/**
 * A receipt's seal as the server checked it (`documentos[i].sello`), in the buyer's words: valid
 * only with a valid seal AND a certificate a SAT CA issued (`valido && ca_sat_verificada`).
 */
function sealStatus(sello) {
  if (!sello) return { motivo: 'SIN_DATO', badge: 'Sin revisar', text: '' };
  if (sello.valido && sello.ca_sat_verificada) {
    return { motivo: 'VALIDO', badge: 'Sello válido', text: 'Verificado con el XML sellado; su certificado lo emitió una autoridad certificadora del SAT.' };
  }
  if (sello.valido) {
    // A valid seal by a certificate the SAT did not issue proves nothing.
    const motivo = sello.ca_sat_motivo ?? 'AC_DESCONOCIDA';
    return { motivo, badge: 'Certificado no del SAT', text: `No verifica nada: ${SEAL_FAILURES[motivo] ?? motivo}.` };
  }
  if (sello.motivo === 'IMPRESO') {
    return { motivo: 'IMPRESO', badge: 'Impreso, sin verificar', text: 'Leído de papel: no trae sello digital; confírmalo con su XML o con el servicio del SAT.' };
  }
  return { motivo: sello.motivo, badge: 'Sello no válido', text: `No verifica nada: ${SEAL_FAILURES[sello.motivo] ?? sello.motivo}.` };
}

/** Each receipt on file with its seal: valid, failed and why, or a print (never verified). */
function ReceiptSeals({ documentos }) {
  return (
    <ul class="plain documents-list" data-testid="receipt-seals">
      {documentos.map((d) => {
        const s = sealStatus(d.sello);
        return (
          <li data-testid="receipt-seal" data-motivo={s.motivo} data-uuid={d.uuid ?? ''}>
            Recibo del {d.fecha_inicial_pago} al {d.fecha_final_pago} ({SOURCES[d.fuente] ?? d.fuente})
            <span class={`badge badge-sello-${s.motivo === 'VALIDO' ? 'valido' : s.motivo === 'IMPRESO' ? 'impreso' : 'invalido'}`}>{s.badge}</span>
            {s.text && <small> {s.text}</small>}
          </li>
        );
      })}
    </ul>
  );
}

/** The verification of a saved profile (GET /api/v1/perfil/{id}). */
export function VerificationSummary({ verificacion }) {
  if (!verificacion) return null;
  const c = verificacion.comprobacion;
  return (
    <div class="card" data-testid="verification">
      <h2>{verificacion.campos.length > 0 ? 'Ingresos verificados' : 'Tus recibos de nómina'}</h2>
      <p>
        Con {verificacion.documentos.length === 1 ? 'un recibo' : `${verificacion.documentos.length} recibos`} de nómina, del {c.periodo.desde} al{' '}
        {c.periodo.hasta}. Datos verificados con el XML sellado: {verificacion.campos.map((k) => LABELS[k] ?? k).join(', ') || 'ninguno'}.
      </p>
      <ReceiptSeals documentos={verificacion.documentos} />
      <ReadFromPaper verificacion={verificacion} />
      {c.notas.length > 0 && (
        <ul class="notes" data-testid="verification-notes">
          {c.notas.map((n) => (
            <li>{n}</li>
          ))}
        </ul>
      )}
      {verificacion.discrepancias.length > 0 && (
        <>
          <h3>Diferencias con lo que declaraste</h3>
          <ul data-testid="discrepancies">
            {verificacion.discrepancias.map((d) => (
              <li>
                {LABELS[d.campo] ?? d.campo}: declaraste {show(d.campo, d.declarado)}, tus recibos indican {show(d.campo, d.verificado)}. {d.nota}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
