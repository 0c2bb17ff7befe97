// The self-contained match report (`koikoi verify FILE --html OUT.html`): the transcript is in
// the page, base64 in a script element of type application/octet-stream; nothing is fetched.
import { openReport } from './report.js';
import { setLang } from './i18n.js';

const el = document.getElementById('koikoi-transcript');
const text = (el?.textContent ?? '').trim();
const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
setLang(navigator.language?.startsWith('ja') ? 'ja' : 'en');
openReport(/** @type {HTMLElement} */ (document.getElementById('app')), text ? bytes : null);
