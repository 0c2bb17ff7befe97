// The play screen's controller: starts the seat's worker (and, for practice, the computer's),
// draws each table it posts with the board, opens the dialogs (terms, security code, koi-koi,
// hand yaku, round and match summaries) and passes the person's choices back. It keeps which
// match is running in localStorage so a reload resumes it.
import { h } from './dom.js';
import { noteRatedResult } from './identity_panel.js';
import { submitRatedResult } from './rated.js';
import { answerClock, handYakuDialog, koikoiDialog, lowTime, renderBoard, tickAnswerClock, tickClocks } from './board.js';
import { lastOfMatch, pendingRound, roundSummary } from './summary.js';
import { wantedDialog } from './dialog_order.js';
import { t } from './i18n.js';
import { overDialog, resignDialog, stoppedDialog, termsDialog } from './dialogs.js';
import { waitingScreen } from './waiting.js';
import { PlayView } from './view.js';
import { Pacer, pauseMs } from './pace.js';
import { deleteFinal, loadFinal } from './store.js';
import { reasonText, tn } from './words.js';
import { computerName, seatLabels, seatNames } from './seatnames.js';

const CURRENT = 'koikoi.current';
/** How long after its own reload a page does not take the opponent's absence for theirs. */
const RESUME_GRACE_MS = 8000;
/** How long a finished match's worker may go on leaving the relay room after the page left the
 * match: LinkTransport.close waits at most 3 s for the peer's link acknowledgement, then
 * RelayClient.close at most 2 s for the relay's, then leaves. */
const LEAVE_GRACE_MS = 6000;
/** Failures of a match whose terms were never accepted: the other seat left during the handshake
 * or before accepting (seat.js peerLeft), or the passwords differ. */
const NOT_STARTED = new Set(['left_in_handshake', 'left_before_terms', 'peer_left', 'pake_failed']);
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/**
 * The match this page plays, and the answers its person gave that only the page knows (the
 * security code compared, the round summary dismissed, the resignation question open): kept with
 * it so that a reload shows neither a question already answered nor loses one still open.
 * @typedef {{id: string, mode: string, computer?: string, sas?: boolean, roundSeen?: number, resign?: boolean}} Current
 */

/** @returns {Current | null} */
export function currentMatch() {
  try {
    return JSON.parse(localStorage.getItem(CURRENT) ?? 'null');
  } catch {
    return null;
  }
}

function forgetCurrent() {
  localStorage.removeItem(CURRENT);
}

/** Note an answer of the match `id` (if it is still the current one). @param {string} id @param {Partial<Current>} patch */
function noteCurrent(id, patch) {
  const cur = currentMatch();
  if (cur && cur.id === id) localStorage.setItem(CURRENT, JSON.stringify({ ...cur, ...patch }));
}

/** A new match replaces the current one: an ended one's summary is not needed any more. @param {Current} next */
function setCurrent(next) {
  const old = currentMatch();
  if (old) deleteFinal(old.id).catch(() => {});
  localStorage.setItem(CURRENT, JSON.stringify(next));
}

function randomId() {
  const b = crypto.getRandomValues(new Uint8Array(8));
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

function practiceRoom() {
  const b = crypto.getRandomValues(new Uint8Array(6));
  return [...b].map((x) => ALPHABET[x % ALPHABET.length]).join('');
}

/** Seat workers started ahead, with the script each runs. @type {{url: string, worker: Worker}[]} */
const spare = [];

/**
 * Start seat workers ahead, while a form shows (issue 26: the first hand): each loads its script
 * and libsodium and does the work every seat does first ('warm'), so that Start finds them ready.
 * At most `count` wait at a time.
 * @param {string} url @param {number} count
 */
export function prepareWorkers(url, count) {
  while (spare.filter((s) => s.url === url).length < count) {
    const worker = new Worker(url, { type: 'module' });
    worker.postMessage({ type: 'warm' });
    spare.push({ url, worker });
  }
}

/** A seat's worker: one started ahead if there is one, else a new one. @param {string} url */
function seatWorker(url) {
  const i = spare.findIndex((s) => s.url === url);
  if (i >= 0) return spare.splice(i, 1)[0].worker;
  return newWorker(url);
}

/** @param {string} url */
export function newWorker(url) {
  return new Worker(url, { type: 'module' });
}

export class Game {
  /**
   * @param {HTMLElement} root
   * @param {{workerUrl: string, settings: any, onHome: () => void, onReport: (bytes: Uint8Array) => void,
   *   onHostAgain: (o: any) => void}} env
   */
  constructor(root, env) {
    this.root = root;
    this.env = env;
    /** @type {Worker | null} */ this.worker = null;
    /** a match asked to start that has shown nothing yet */ this.starting = false;
    /** @type {Worker | null} */ this.computer = null;
    /** @type {any} */ this.table = null;
    /** @type {{[kind: string]: Uint8Array}} */ this.files = {};
    /** the match's id (the person's seat) */
    this.id = '';
    this.shownRound = -1;
    this.autoAnswered = -2;
    this.termsAnswered = false;
    this.sasConfirmed = false;
    this.confirmingResign = false;
    this.destroyed = false;
    /** @type {any} the settings of the room this page hosts (startOnline), else null */ this.hosting = null;
    /** the seat's latest table said it finished (its link then leaves the room) */ this.finishedSeen = false;
    /** the worker said its seat's link is closed */ this.linkClosed = false;
    this.resumedAt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.graceTimer = undefined;
    /** Set while the page shows a dead end (#cannotStart): what leaving it must do. @type {(() => void) | null} */
    this.deadEnd = null;
    /** the deal the board shows (-1: none yet) */
    this.boardDeal = -1;
    /** a newer table than the board shows waits behind the round summary */
    this.boardHeld = false;
    this.boardEl = h('div', { class: 'boardwrap' });
    this.dialog = /** @type {HTMLDialogElement} */ (h('dialog', { class: 'dlg', 'aria-labelledby': 'dlg-title' }));
    this.dialogKind = '';
    // Escape dismisses a round summary as its button does (noted, so it does not come back); no other dialog.
    this.dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      if (this.dialogKind === 'round') /** @type {HTMLElement | null} */ (this.dialog.querySelector('button.primary'))?.click();
    });
    this.notice = h('div', { class: 'notice', role: 'alert' });
    // Motion, the last move, the move log, announcements and sound (view.js): it follows the tables, never holds them.
    this.view = new PlayView(this.boardEl);
    // The seat's tables reach the board through the pacer: in practice it holds the computer's
    // move for a short pause (pace.js); online it holds nothing.
    this.pacer = new Pacer((table) => this.#draw(table), { pauseMs: 0, covered: () => this.dialog.open });
    root.replaceChildren(this.notice, this.boardEl, this.view.el, this.dialog);
    /** the wait whose last seconds were announced (once a wait, not every second) */ this.lowSaid = '';
    this.clock = setInterval(() => { tickClocks(this.boardEl, this.table); tickAnswerClock(this.dialog, this.table); this.#sayLow(); }, 500);
    this.keys = (/** @type {KeyboardEvent} */ e) => this.#key(e);
    document.addEventListener('keydown', this.keys);
    // The browser knows at once when this device loses its network; the link learns it only at
    // its keepalive bound (10 s). Say so now (QA: a move made meanwhile looked sent); the link's
    // own state takes over with the next table, and back online the notice goes unless it still holds.
    this.offline = () => { if (this.#live()) this.#say(t('reconnecting')); };
    this.online = () => {
      if (this.notice.textContent === t('reconnecting') && this.table?.connection !== 'reconnecting') this.#say('');
    };
    window.addEventListener('offline', this.offline);
    window.addEventListener('online', this.online);
  }

  /**
   * The person's decision has few seconds left: the board and the dialog show them (board.js),
   * and a screen reader hears it once, where the person is (QA: the match ended unannounced).
   */
  #sayLow() {
    const low = this.table ? lowTime(this.table) : null;
    const key = this.table?.wait?.key ?? '';
    if (low === null || this.lowSaid === key) return;
    this.lowSaid = key;
    this.view.announcer.say(tn('lowTimeSay', low));
  }

  /** An online match on the board, not over: one whose connection matters. */
  #live() {
    const table = this.table;
    return !!table && table.mode === 'online' && !!table.paired && !table.finished;
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.clock);
    clearTimeout(this.graceTimer);
    this.view.destroy();
    this.pacer.destroy();
    document.removeEventListener('keydown', this.keys);
    window.removeEventListener('offline', this.offline);
    window.removeEventListener('online', this.online);
    // A finished match's link may still be leaving the relay room (it first waits, at most 2 s,
    // for its last frames to be acknowledged): ending the worker now would drop the connection
    // instead, and the other seat would wait for us to come back (spec/relay.md: `leave` vs a
    // seat away). So a finished match's worker ends when it says its link is closed, or after
    // LEAVE_GRACE_MS; one still playing ends at once (a drop keeps the match resumable).
    const worker = this.worker;
    if (worker && this.finishedSeen && !this.linkClosed) setTimeout(() => worker.terminate(), LEAVE_GRACE_MS);
    else worker?.terminate();
    this.computer?.terminate();
  }

  /** @param {Worker} w */
  #listen(w) {
    w.onmessage = (ev) => {
      if (ev.data?.type === 'closed') this.linkClosed = true;
      if (!this.destroyed) this.#message(ev.data);
      else if (this.linkClosed) w.terminate();
    };
    w.onerror = (ev) => this.#say(t('errorGeneric', { reason: ev.message }));
  }

  /**
   * Practice: the person is seat 0 and proposes the rules; the computer (seat 1) runs in its own
   * worker and plays through the same protocol and proofs.
   * @param {{profile: any, level: string}} o
   */
  startPractice(o) {
    const id = randomId(), cid = randomId(), room = practiceRoom();
    setCurrent({ id, mode: 'practice', computer: cid });
    this.id = id;
    this.pacer.pause = pauseMs();
    const channel = new MessageChannel();
    this.worker = seatWorker(this.env.workerUrl);
    this.computer = seatWorker(this.env.workerUrl);
    this.#listen(this.worker);
    this.computer.onmessage = (ev) => { if (ev.data.type === 'error') this.#say(errorText(ev.data.reason, ev.data.message)); };
    const common = { room, password: null, link: { kind: 'port' }, mode: 'practice', lang: this.env.settings.lang };
    this.worker.postMessage({ type: 'start', id, role: 'human', seat: 0, name: this.env.settings.name, profile: o.profile, level: o.level, ...common, port: channel.port1 }, [channel.port1]);
    this.computer.postMessage({ type: 'start', id: cid, role: 'computer', seat: 1, name: computerName(o.level).slice(0, 32), level: o.level, ...common, port: channel.port2 }, [channel.port2]);
  }

  /**
   * Online: host a room or join one on a relay.
   * @param {{action: 'host' | 'join', url: string, code?: string, public?: boolean, password?: string, profile?: any, deadlines?: any,
   *   rated?: boolean, ratings?: string, listing?: any}} o
   */
  startOnline(o) {
    const id = randomId();
    // Kept in this page's memory only (never saved): the settings a host may open a room with again.
    this.hosting = o.action === 'host' ? o : null;
    setCurrent({ id, mode: 'online' });
    this.id = id;
    this.worker = seatWorker(this.env.workerUrl);
    this.#listen(this.worker);
    this.#say(t('connecting'));
    this.starting = true;
    this.worker.postMessage({
      type: 'start', id, role: 'human', seat: o.action === 'host' ? 0 : 1, name: this.env.settings.name, profile: o.profile ?? null,
      deadlines: o.deadlines ?? null, password: o.password || null, mode: 'online', lang: this.env.settings.lang,
      rated: o.rated ?? false, ratings: o.ratings ?? '',
      // Whether the room has a password (the waiting room reminds the host to pass it on), never the password.
      link: { kind: 'relay', url: o.url, action: o.action, code: o.code, public: !!o.public, password: !!o.password, listing: o.listing ?? null },
    });
  }

  /**
   * Continue the match saved in IndexedDB (after a reload), with the answers the page had noted;
   * a match that had ended shows its summary again, with its files.
   * @param {Current} cur
   */
  async resume(cur) {
    this.id = cur.id;
    // Until the seat answers, what the page is doing instead of an empty table (QA: a second tab
    // showed one for seconds): the worker may wait up to 5 s for the seat's lock (worker.js
    // holdingSeat) before it says another tab holds the match. The first table replaces this.
    this.view.el.hidden = true;
    this.boardEl.replaceChildren(h('section', { class: 'waiting panel opening', role: 'status' }, [
      h('h2', {}, t('openingMatch')), h('p', { class: 'muted' }, t('openingMatchNote')),
    ]));
    this.sasConfirmed = !!cur.sas;
    this.shownRound = cur.roundSeen ?? -1;
    this.confirmingResign = !!cur.resign;
    const final = await loadFinal(cur.id).catch(() => undefined);
    if (this.destroyed) return;
    if (final) {
      this.files = { ...final.files };
      this.#draw(final.table);
      return;
    }
    this.worker = seatWorker(this.env.workerUrl);
    this.#listen(this.worker);
    // Not "continues" yet: the seat may be held by another tab, or no longer restorable.
    this.#say(t('connecting'));
    // Our own reload leaves the opponent's link pairing again for a moment: during it the relay
    // reports them away, which is not their doing (QA: the reloading page blamed the opponent).
    this.resumedAt = Date.now();
    this.graceTimer = setTimeout(() => { if (this.table && !this.destroyed) this.#notice(this.table); }, RESUME_GRACE_MS + 50);
    if (cur.mode === 'practice' && cur.computer) {
      this.pacer.pause = pauseMs();
      const channel = new MessageChannel();
      this.computer = seatWorker(this.env.workerUrl);
      this.computer.onmessage = (ev) => { if (ev.data.type === 'error') this.#say(errorText(ev.data.reason, ev.data.message)); };
      this.worker.postMessage({ type: 'resume', id: cur.id, port: channel.port1 }, [channel.port1]);
      this.computer.postMessage({ type: 'resume', id: cur.computer, port: channel.port2 }, [channel.port2]);
    } else {
      this.worker.postMessage({ type: 'resume', id: cur.id });
    }
  }

  /**
   * Nothing of a match to show (a room that does not exist, a relay that does not answer, a saved
   * match that cannot be restored or is open in another tab): say why, with the way home. The
   * match is no longer the page's current one, unless another tab plays it.
   * @param {string} reason @param {string} message
   */
  #cannotStart(reason, message) {
    this.#say('');
    this.view.el.hidden = true;
    const locked = reason === 'seat_locked';
    // The browser's Back leaves this panel as its Home button does (main.js: popstate).
    this.deadEnd = () => { if (!locked) this.#leave(); };
    const home = h('button', { type: 'button', class: 'primary', onclick: () => {
      this.deadEnd?.();
      this.env.onHome();
    } }, t('home'));
    this.boardEl.replaceChildren(h('section', { class: 'waiting panel cannotstart', role: 'alert' }, [
      h('h2', {}, t(locked ? 'elsewhere' : this.starting ? 'cannotStart' : 'cannotContinue')),
      h('p', {}, errorText(reason, message)),
      h('div', { class: 'choices' }, [home]),
    ]));
    home.focus();
  }

  /** @param {string} text */
  #say(text) {
    this.notice.textContent = text;
    this.notice.hidden = !text;
  }

  /** @param {any} msg */
  #message(msg) {
    switch (msg.type) {
      case 'table': this.starting = false; this.finishedSeen ||= !!msg.table?.finished; this.pacer.offer(msg.table); break;
      case 'room': this.roomCode = msg.code; this.#say(''); break;
      case 'cancelled': forgetCurrent(); this.env.onHome(); break;
      case 'file':
        this.files[msg.kind] = msg.bytes;
        if (msg.kind === 'result' && this.table?.terms?.rated) this.#submitRated(msg.bytes, this.table.terms.ratings);
        if (this.table) this.#dialogs(this.table);
        break;
      case 'notice': this.#say(t(msg.key, msg.params)); break;
      case 'error':
        if (!this.table) this.#cannotStart(String(msg.reason), String(msg.message ?? ''));
        else this.#say(errorText(msg.reason, msg.message));
        if (msg.reason === 'no_saved_match') forgetCurrent();
        break;
      default: break;
    }
  }

  /**
   * After a rated match, send the co-signed result to the terms' rating service (spec/ratings.md
   * §2.3, §3.1); both seats send, the service counts the first copy. It carries its own proof.
   * @param {Uint8Array} bytes @param {string} url
   */
  async #submitRated(bytes, url) {
    const base = url.replace(/\/+$/, '');
    const answer = await submitRatedResult(bytes, base, {
      retrying: () => this.#say(t('ratedSent', { url: base, answer: t('ratedRetrying') })),
      stopped: () => this.destroyed,
      counted: noteRatedResult,
    });
    this.#say(t('ratedSent', { url: base, answer }));
  }

  /** What the link's state says above the board. @param {any} table */
  #notice(table) {
    // A finished match has no link left to speak of (the peer's page closing it is not news).
    const settling = Date.now() - this.resumedAt < RESUME_GRACE_MS;
    if ((table.connection === 'reconnecting' || (!navigator.onLine && this.#live())) && !table.finished) this.#say(t('reconnecting'));
    else if (table.connection === 'peer_away' && !table.finished) this.#say(t(settling ? 'connecting' : 'peerAway'));
    else if (['reconnecting', 'peerAway', 'connecting', 'resumed'].some((key) => this.notice.textContent === t(key))) this.#say('');
  }

  /** @param {any} table */
  #draw(table) {
    this.table = table;
    this.#notice(table);
    // A round's summary stays over the board the round ended on (QA: it opened over the next
    // deal's cards): the next deal is drawn, with its motion, when the summary is dismissed.
    if (this.#holdsBoard(table)) {
      this.boardHeld = true;
      this.#dialogs(table);
      if (this.dialog.open && this.dialogKind === 'round') return;
    }
    this.boardHeld = false;
    const names = seatNames(table);
    let snap = null;
    // The move log and the sound switch belong to a board: not beside a waiting room.
    this.view.el.hidden = !table.paired && table.mode === 'online';
    if (!table.paired && table.mode === 'online') {
      this.boardEl.replaceChildren(this.#waitingRoom(table));
    } else {
      snap = this.view.before();
      // The board is drawn anew: a focused card goes with it. Keep the keyboard's place on the
      // board (the next card to choose, else the status line) instead of dropping it to the page.
      const focused = this.boardEl.contains(document.activeElement);
      renderBoard(this.boardEl, table, {
        decide: (o) => this.#decide(o), resign: () => this.#resign(), showIds: !!this.env.settings.showIds, names,
        labels: seatLabels(table, names),
      });
      if (focused && !this.boardEl.contains(document.activeElement)) this.#keepFocus();
      this.boardDeal = table.deal;
    }
    this.#dialogs(table);
    // After the dialogs: an announcement is spoken where the player is (in an open dialog).
    if (snap) this.view.after(snap, table, names);
  }

  /**
   * Whether the board keeps the deal it shows: a summary of that deal is still to be read and
   * `table` is of a later deal (the next deal is made while the person reads). @param {any} table
   */
  #holdsBoard(table) {
    if (table.over || table.failure || table.deal === this.boardDeal || !this.boardEl.querySelector('.board')) return false;
    const pending = pendingRound(table, this.shownRound);
    return !!pending && pending.deal === this.boardDeal;
  }

  /** Focus the board's next choice, else its status line (made focusable for that). */
  #keepFocus() {
    const next = /** @type {HTMLElement | null} */ (this.boardEl.querySelector('.field button.card.choice, .hand button.card:not([disabled])'));
    if (next) {
      next.focus();
      return;
    }
    const status = /** @type {HTMLElement | null} */ (this.boardEl.querySelector('.status'));
    if (status) {
      status.tabIndex = -1;
      status.focus();
    }
  }

  /** The host's waiting screen (waiting.js); Cancel closes the room. @param {any} table */
  #waitingRoom(table) {
    return waitingScreen(table, {
      code: table.room || this.roomCode || '', settings: this.env.settings,
      cancel: () => this.worker?.postMessage({ type: 'cancel' }), redraw: () => { if (this.table) this.#draw(this.table); },
    });
  }

  /** @param {any} o */
  #decide(o) {
    this.worker?.postMessage({ type: 'decide', action: o });
  }

  /** Ask before resigning (in the page's own dialog, over whatever question was open). */
  #resign() {
    if (!this.table || !this.table.canResign) return;
    this.#setResign(true);
    this.#dialogs(this.table);
  }

  /** Open or close the resignation question (noted: a reload keeps it open). @param {boolean} open */
  #setResign(open) {
    if (this.confirmingResign === open) return;
    this.confirmingResign = open;
    noteCurrent(this.id, { resign: open });
  }

  /** An answer was given in the open dialog: close it and open what the table calls for next. */
  #answered() {
    this.dialog.close();
    this.dialogKind = '';
    if (this.table && this.boardHeld) this.#draw(this.table);
    else if (this.table) this.#dialogs(this.table);
  }

  /** @param {any} table @param {[string, string]} names */
  #resignView(table, names) {
    const close = () => { this.#setResign(false); this.#answered(); };
    return resignDialog(table, names, { cancel: close, confirm: () => { this.worker?.postMessage({ type: 'resign' }); close(); } });
  }

  /**
   * Open the dialog the table calls for (or close it).
   * @param {any} table
   */
  #dialogs(table) {
    const names = seatNames(table);
    /** @type {[string, () => HTMLElement] | null} */
    let want = null;
    if (!table.canResign) this.#setResign(false);
    const w = wantedDialog(table, { sasConfirmed: this.sasConfirmed, confirmingResign: this.confirmingResign, termsAnswered: this.termsAnswered, shownRound: this.shownRound });
    // No dealt-hand yaku to claim: the only answer is to play on, so it is given for the person.
    if (w.autoHand && this.autoAnswered !== table.deal) {
      this.autoAnswered = table.deal;
      this.#decide(table.ask.options[0]);
    }
    if (w.kind === 'failure') want = ['failure', () => this.#failureView(table)];
    else if (w.kind === 'over') want = ['over', () => this.#overView(table, names)];
    else if (w.kind === 'sas') want = ['sas', () => this.#sasView(table)];
    else if (w.kind === 'resign') want = ['resign', () => this.#resignView(table, names)];
    else if (w.kind === 'terms') want = ['terms', () => this.#termsView(table, names)];
    else if (w.kind === 'decide') want = [`decide-${table.deal}-${table.round.calls.length}`, () => koikoiDialog(table, names, (o) => this.#decide(o), () => this.#resign())];
    else if (w.kind === 'round') {
      const shown = { ...table, lastRound: w.round };
      want = ['round', () => this.#roundView(shown, names)];
    } else if (w.kind === 'hand') want = [`hand-${table.deal}`, () => handYakuDialog(table, (o) => this.#decide(o))];
    if (!want) {
      if (this.dialog.open && this.dialogKind !== 'round') this.dialog.close();
      if (!this.dialog.open) this.dialogKind = '';
      return;
    }
    const [kind, make] = want;
    if (this.dialogKind === kind && this.dialog.open && kind !== 'over' && kind !== 'failure') return;
    // A re-drawn summary keeps the person's place: the same control gets the focus back.
    const focusables = () => Array.from(this.dialog.querySelectorAll('a[href], button, summary'));
    const again = this.dialogKind === kind && this.dialog.open ? focusables().indexOf(/** @type {Element} */ (document.activeElement)) : -1;
    this.dialogKind = kind;
    this.dialog.className = `dlg dlg-${kind.split('-')[0]}`;
    this.dialog.replaceChildren(make());
    if (!this.dialog.open) this.dialog.showModal();
    /** @type {HTMLElement | null} */
    let first;
    if (again >= 0) first = /** @type {HTMLElement | undefined} */ (focusables()[again]) ?? null;
    else if (kind === 'over' || kind === 'failure') {
      // These summaries can replace the round's summary while the person is about to press
      // Enter on it, and each of their choices leaves the match (or downloads): the focus starts
      // on the heading, so a key meant for the dialog it replaced does nothing here.
      first = this.dialog.querySelector('h2');
      first?.setAttribute('tabindex', '-1');
    } else first = this.dialog.querySelector('button.primary, button');
    first?.focus();
  }

  /** @param {any} table @param {[string, string]} names */
  #roundView(table, names) {
    // The next deal's question may already be ours, its clock running behind the summary (review):
    // the summary shows that clock and its last seconds, as the other dialogs do.
    return h('div', { 'data-deal': String(table.lastRound.deal) }, [roundSummary(table, names), answerClock(table, 'decide'), h('div', { class: 'choices' }, [
      h('button', { class: 'primary', onclick: () => { this.shownRound = table.lastRound.deal; noteCurrent(this.id, { roundSeen: this.shownRound }); this.#answered(); } }, lastOfMatch(table) ? t('nextToResult') : t('next')),
    ])]);
  }

  /** @param {any} table */
  #sasView(table) {
    return h('div', { class: 'sas' }, [
      h('h2', { id: 'dlg-title' }, t('sasTitle')),
      h('p', { class: 'sascode', 'data-sas': table.paired.sas }, table.paired.sas),
      h('p', {}, t('sasBody')),
      answerClock(table),
      h('div', { class: 'choices' }, [
        h('button', { class: 'primary', onclick: () => { this.sasConfirmed = true; noteCurrent(this.id, { sas: true }); this.#answered(); } }, t('sasSame')),
        h('button', { onclick: () => { this.worker?.postMessage({ type: 'refuse', reason: 'sas_differs' }); this.sasConfirmed = true; this.#answered(); } }, t('sasDiffers')),
      ]),
    ]);
  }

  /** @param {any} table @param {[string, string]} names */
  #termsView(table, names) {
    return termsDialog(table, names, {
      accept: () => { this.termsAnswered = true; this.worker?.postMessage({ type: 'accept' }); this.#answered(); },
      refuse: () => { this.termsAnswered = true; this.worker?.postMessage({ type: 'refuse' }); this.#answered(); },
    });
  }

  /** @param {any} table @param {[string, string]} names */
  #overView(table, names) {
    return overDialog(table, names, [
      this.#downloadButton('transcript', t('download'), `koikoi-${table.room}.transcript`),
      this.#downloadButton('result', t('downloadResult'), `koikoi-${table.room}.result`),
      this.files.transcript ? h('button', { onclick: () => { const bytes = this.files.transcript; this.#leave(); this.env.onReport(bytes); } }, t('openReport')) : null,
      h('button', { onclick: () => { this.#leave(); this.env.onHome(); } }, t('home')),
    ]);
  }

  /** @param {any} table */
  #failureView(table) {
    const reason = table.failure?.reason;
    // The other seat left before the terms were accepted (spec/game.md §2.5): no match began and
    // nothing was signed, so there is no transcript to keep; a host may open the same room again.
    const unstarted = NOT_STARTED.has(reason) && !table.match;
    const again = unstarted && this.hosting ? this.hosting : null;
    // After a handshake left half-way the passwords most likely differ: the host checks its own too.
    const note = again ? t(reason === 'left_in_handshake' ? 'hostAgainPasswordNote' : 'hostAgainNote')
      : reason === 'pake_failed' ? t('passwordsDifferNote') : null;
    return stoppedDialog(table, seatNames(table), [
      again ? h('button', { class: 'primary', 'data-action': 'host-again', onclick: () => { this.#leave(); this.env.onHostAgain(again); } }, t('hostAgain')) : null,
      this.#downloadButton('evidence', t('evidence'), `koikoi-${table.room}.evidence`),
      unstarted ? null : this.#downloadButton('transcript', t('download'), `koikoi-${table.room}.transcript`),
      h('button', { onclick: () => { this.#leave(); this.env.onHome(); } }, t('home')),
    ], note);
  }

  /** The person leaves the summary of the ended match: it is not the current match any more. */
  #leave() {
    const cur = currentMatch();
    if (cur && cur.id === this.id) forgetCurrent();
    deleteFinal(this.id).catch(() => {});
  }

  /** @param {string} kind @param {string} label @param {string} name */
  #downloadButton(kind, label, name) {
    const bytes = this.files[kind];
    if (!bytes) return null;
    return h('a', { class: 'button', href: URL.createObjectURL(new Blob([/** @type {any} */ (bytes)], { type: 'application/octet-stream' })), download: name, 'data-file': kind }, label);
  }

  /** @param {KeyboardEvent} e */
  #key(e) {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.ctrlKey || e.metaKey || e.altKey) return;
    const key = e.key.toLowerCase();
    if (this.dialog.open) {
      const b = /** @type {HTMLElement | null} */ (this.dialog.querySelector(`button[data-key="${key}"]`));
      if (b) { e.preventDefault(); b.click(); }
      return;
    }
    if (/^[1-9]$/.test(key)) {
      const b = /** @type {HTMLElement | null} */ (this.boardEl.querySelector(`.hand button[data-key="${key}"]`));
      if (b) { e.preventDefault(); b.focus(); }
      return;
    }
    if (key === 'arrowleft' || key === 'arrowright') {
      const active = document.activeElement;
      const row = active?.closest('.hand, .field');
      if (!row) {
        const first = /** @type {HTMLElement | null} */ (this.boardEl.querySelector('.hand button, .field button'));
        first?.focus();
        return;
      }
      const buttons = /** @type {HTMLElement[]} */ (Array.from(row.querySelectorAll('button')));
      const i = buttons.indexOf(/** @type {HTMLElement} */ (active));
      const next = buttons[(i + (key === 'arrowright' ? 1 : buttons.length - 1)) % buttons.length];
      if (next) { e.preventDefault(); next.focus(); }
    }
  }
}

/** @param {string} reason @param {string} message */
export function errorText(reason, message) {
  // No network at all is not the relay's fault, nor a limit on this address (QA).
  if (reason === 'unreachable' && typeof navigator !== 'undefined' && navigator.onLine === false) return t('errorOffline');
  if (reason === 'unreachable') return t('errorRelay', { url: message });
  if (reason === 'room_not_found') return t('errorRoom');
  if (reason === 'room_full') return t('errorFull');
  if (reason === 'bad_password' || reason === 'key_confirmation') return t('errorPassword');
  if (reason === 'seat_locked') return t('errorLocked');
  return t('errorGeneric', { reason: reasonText(reason) });
}
