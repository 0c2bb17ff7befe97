// The settings' identity section (spec/identity.md): export this browser's identity to a file sealed
// under a passphrase, or import one made here or by `koikoi identity export`, so that one player has
// one fingerprint, one name and one rating on every device. The sealing and opening run in a worker
// (Argon2id takes a second); the page only carries bytes and words.
import { h } from './dom.js';
import { t } from './i18n.js';

const RATED = 'koikoi.identity.rated';
const EXPORTED = 'koikoi.identity.exported';

/** Remember that this browser's key has a rated result (the home screen then offers the export). */
export function noteRatedResult() {
  localStorage.setItem(RATED, '1');
}

/** Whether the home screen should offer the export: a rating exists and no export was made since. */
export function exportOffered() {
  return localStorage.getItem(RATED) === '1' && localStorage.getItem(EXPORTED) === null;
}

/**
 * @typedef {{worker: () => Worker, name: () => string, imported: (fingerprint: string, name: string) => void,
 *   fingerprint: () => string}} IdentityHooks
 */

/**
 * Run one request in a fresh worker and resolve with its first answer of the kinds given.
 * @param {() => Worker} make @param {any} msg @param {Transferable[]} transfer
 * @returns {Promise<any>}
 */
function ask(make, msg, transfer = []) {
  return new Promise((resolve) => {
    const w = make();
    w.onmessage = (ev) => {
      if (['identityFile', 'imported', 'confirmReplace', 'error'].includes(ev.data.type)) {
        w.terminate();
        resolve(ev.data);
      }
    };
    w.postMessage(msg, transfer);
  });
}

/** The refusal reasons of spec/identity.md §4, in words. */
const PROBLEMS = /** @type {const} */ ({
  not_identity_file: 'identityError_not_identity_file',
  unsupported_version: 'identityError_unsupported_version',
  damaged_identity_file: 'identityError_damaged_identity_file',
  wrong_passphrase: 'identityError_wrong_passphrase',
  bad_identity_file: 'identityError_bad_identity_file',
});

/** @param {string} reason */
function problem(reason) {
  const key = /** @type {Record<string, typeof PROBLEMS[keyof typeof PROBLEMS]>} */ (PROBLEMS)[reason];
  return key ? t(key) : t('identityError', { reason });
}

/**
 * The section, folded until opened (`open` when the home screen's offer points at it).
 * @param {IdentityHooks} hooks @param {boolean} [open]
 */
export function identitySection(hooks, open = false) {
  const status = h('p', { class: 'status small', role: 'status', 'aria-live': 'polite' });
  const say = (/** @type {string} */ text, cls = '') => { status.className = `status small ${cls}`; status.textContent = text; };

  const first = h('input', { type: 'password', name: 'export-passphrase', autocomplete: 'new-password', minlength: 8, required: true });
  const again = h('input', { type: 'password', name: 'export-again', autocomplete: 'new-password', minlength: 8, required: true });
  const exportForm = h('form', { class: 'identity-export', onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    const a = /** @type {HTMLInputElement} */ (first).value;
    if ([...a.normalize('NFC')].length < 8) return say(t('identityShort'), 'error');
    if (a !== /** @type {HTMLInputElement} */ (again).value) return say(t('identityDiffer'), 'error');
    say(t('identitySealing'));
    const answer = await ask(hooks.worker, { type: 'exportIdentity', name: hooks.name(), passphrase: a });
    if (answer.type === 'error') return say(problem(answer.reason), 'error');
    const link = h('a', { href: URL.createObjectURL(new Blob([answer.bytes], { type: 'application/octet-stream' })),
      download: `koikoi-identity-${answer.fingerprint}.koikoi-id` });
    document.body.append(link);
    link.click();
    link.remove();
    localStorage.setItem(EXPORTED, new Date().toISOString());
    /** @type {HTMLInputElement} */ (first).value = '';
    /** @type {HTMLInputElement} */ (again).value = '';
    say(t('identityExported', { fp: answer.fingerprint }), 'ok');
  } }, [
    h('h3', {}, t('identityExportTitle')),
    h('label', {}, [t('identityPassphrase'), first]),
    h('label', {}, [t('identityAgain'), again]),
    h('button', { type: 'submit' }, t('identityExport')),
  ]);

  const file = h('input', { type: 'file', name: 'identity-file', accept: '.koikoi-id,application/octet-stream', required: true });
  const phrase = h('input', { type: 'password', name: 'import-passphrase', autocomplete: 'current-password', required: true });
  const confirmRow = h('div', { class: 'choices' });
  // Shown only while a replacement waits for the answer (style: `.choices` sets its own display).
  const showConfirm = (/** @type {boolean} */ shown) => { confirmRow.style.display = shown ? '' : 'none'; };
  showConfirm(false);
  /** @param {boolean} replace */
  const submitImport = async (replace) => {
    const chosen = /** @type {HTMLInputElement} */ (file).files?.[0];
    if (!chosen) return say(t('identityChooseFile'), 'error');
    say(t('identityOpening'));
    const bytes = new Uint8Array(await chosen.arrayBuffer());
    const answer = await ask(hooks.worker, { type: 'importIdentity', bytes, passphrase: /** @type {HTMLInputElement} */ (phrase).value, replace },
      [bytes.buffer]);
    if (answer.type === 'error') return say(problem(answer.reason), 'error');
    if (answer.type === 'confirmReplace') {
      say(t('identityReplaceAsk', { current: answer.current, incoming: answer.incoming }), 'warn');
      showConfirm(true);
      return undefined;
    }
    showConfirm(false);
    /** @type {HTMLInputElement} */ (phrase).value = '';
    hooks.imported(answer.fingerprint, answer.name);
    say(t(answer.backup ? 'identityImportedKept' : 'identityImported', { fp: answer.fingerprint }), 'ok');
    return undefined;
  };
  confirmRow.append(
    h('button', { type: 'button', class: 'primary', onclick: () => submitImport(true) }, t('identityReplace')),
    h('button', { type: 'button', onclick: () => { showConfirm(false); say(t('identityKept')); } }, t('identityKeep')),
  );
  const importForm = h('form', { class: 'identity-import', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); submitImport(false); } }, [
    h('h3', {}, t('identityImportTitle')),
    h('label', {}, [t('identityFile'), file]),
    h('label', {}, [t('identityPassphraseOpen'), phrase]),
    h('button', { type: 'submit' }, t('identityImport')),
  ]);

  return h('details', { class: 'identity', open }, [
    h('summary', {}, t('identityTitle')),
    h('p', { class: 'muted small' }, t('identityWhy')),
    exportForm,
    importForm,
    confirmRow,
    status,
  ]);
}
