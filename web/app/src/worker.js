// The worker that runs one seat (the person's, or the practice computer's) with all its
// cryptography off the page's thread. Messages from the page:
//   {type: 'identity'}                                    -> {type: 'identity', fingerprint}
//   {type: 'exportIdentity', name, passphrase}            -> {type: 'identityFile', bytes, fingerprint}
//   {type: 'importIdentity', bytes, passphrase, replace}  -> {type: 'imported', fingerprint, name, backup}
//                                                            or {type: 'confirmReplace', current, incoming}
//   {type: 'start', id, role, seat, room?, password, name, profile, deadlines, rated?, ratings?, level, link, port?}
//   {type: 'resume', id, port?}
//   {type: 'decide', action} | {type: 'accept'} | {type: 'refuse', reason?} | {type: 'resign'}
//   {type: 'cancel'}: the host closes its room before anyone joined -> {type: 'cancelled'}
//   {type: 'warm'}: a worker started ahead of its seat loads libsodium and does the work any seat
//     does first (mentalpoker/warm.js); no answer
// and to the page: {type: 'table', table}, {type: 'room', code}, {type: 'file', kind, bytes},
// {type: 'error', reason, message}. `link` is {kind: 'port'} (practice: frames over `port`) or
// {kind: 'relay', url, action: 'host' | 'join', code?, public?, password? (whether there is one), listing?} (listing: spec/relay.md §4.2).
import { ready } from '../../src/api/match.js';
import { Identity } from '../../src/api/match.js';
import { openIdentity, sealIdentity } from '../../src/api/match.js';
import { systemRandom } from '../../src/api/match.js';
import { Profile } from '../../src/api/rules.js';
import { RelayClient } from '../../src/api/match.js';
import { toHex, fromHex } from '../../src/api/match.js';
import { deleteSeat, getValue, loadSeat, saveSeat, setValue } from './store.js';
import { Seat } from './seat.js';
import { AWAY_MS, LinkTransport } from '../../src/api/match.js';
import { RelayRendezvous } from '../../src/api/match.js';
import { warmUp } from '../../src/mentalpoker/warm.js';

const scope = /** @type {any} */ (globalThis);
/** @param {any} msg @param {Transferable[]} [transfer] */
const post = (msg, transfer = []) => scope.postMessage(msg, transfer);

/** @type {Seat | null} */
let seat = null;
/** The host's relay client while its room waits for a joiner (Cancel closes it). @type {RelayClient | null} */
let waiting = null;

/** The player's long-term identity, made on first use and kept in IndexedDB. */
async function identity() {
  let hex = /** @type {string | undefined} */ (await getValue('identity'));
  if (!hex) {
    hex = toHex(systemRandom(32));
    await setValue('identity', hex);
  }
  return new Identity(fromHex(hex));
}

/**
 * Seal this browser's identity into a portable file (spec/identity.md §3); Argon2id runs here,
 * off the page's thread.
 * @param {any} msg
 */
async function exportIdentity(msg) {
  const me = await identity();
  const bytes = sealIdentity(me, String(msg.name ?? ''), String(msg.passphrase), systemRandom);
  post({ type: 'identityFile', bytes, fingerprint: me.fingerprint() }, [bytes.buffer]);
}

/**
 * Open a portable identity file (spec/identity.md §4) and make it this browser's identity. An
 * identity already here is replaced only when the page confirmed it (`replace`), and is kept under
 * a backup key first, so a mistaken import loses nothing.
 * @param {any} msg
 */
async function importIdentity(msg) {
  const carried = openIdentity(new Uint8Array(msg.bytes), String(msg.passphrase));
  const current = /** @type {string | undefined} */ (await getValue('identity'));
  const same = current !== undefined && current === toHex(carried.identity.seed);
  let backup = '';
  if (current !== undefined && !same) {
    if (!msg.replace) {
      post({ type: 'confirmReplace', current: new Identity(fromHex(current)).fingerprint(), incoming: carried.fingerprint });
      return;
    }
    backup = `identity-backup-${new Date().toISOString()}`;
    await setValue(backup, current);
  }
  await setValue('identity', toHex(carried.identity.seed));
  post({ type: 'imported', fingerprint: carried.fingerprint, name: carried.name, backup });
}

/**
 * A message port as a transport (practice: the two workers talk directly).
 * @param {MessagePort} port
 */
function portTransport(port) {
  /** @type {Uint8Array[]} */
  const inbox = [];
  /** @type {((v: Uint8Array) => void)[]} */
  const waiting = [];
  port.onmessage = (ev) => {
    const data = new Uint8Array(ev.data);
    const w = waiting.shift();
    if (w) w(data);
    else inbox.push(data);
  };
  port.start();
  return {
    /** @param {Uint8Array} data */
    send(data) { port.postMessage(data); },
    /** @returns {Promise<Uint8Array>} */
    receive() {
      const next = inbox.shift();
      return next ? Promise.resolve(next) : new Promise((resolve) => waiting.push(resolve));
    },
    async close() {},
  };
}

/** How long a seat waits for the lock a reloaded page's old worker may still hold. */
const RELOAD_GRACE_MS = 5000;

/**
 * Run `fn` while this worker holds the lock of seat `id`: one saved seat never runs in two tabs or
 * windows at once (spec/protocol.md §12.3). Two copies would sign two envelopes at one message
 * number (an equivocation the opponent holds proof of) and share the round keys drawn before they
 * split, so an opponent who finishes a deal with one copy reads the other's cards. Web Locks
 * where the page has them (https, localhost: exact, released when the worker ends); elsewhere a
 * BroadcastChannel question that the holder answers, which refuses a tab opened while another
 * one plays the match.
 * @template T @param {string} id @param {() => Promise<T>} fn @returns {Promise<T>}
 */
async function holdingSeat(id, fn) {
  const name = `koikoi-seat:${id}`;
  const refused = () => Object.assign(new Error('this match is open in another tab or window'), { reason: 'seat_locked' });
  const locks = scope.navigator?.locks;
  if (locks) {
    // A reloaded page's new worker can start before the old page's worker has ended and let go
    // of the lock: wait for it a few seconds before saying another tab holds the match.
    const signal = AbortSignal.timeout(RELOAD_GRACE_MS);
    return locks.request(name, { signal }, async () => fn()).catch((/** @type {any} */ e) => {
      if (signal.aborted && e?.name === signal.reason?.name) throw refused();
      throw e;
    });
  }
  const channel = new BroadcastChannel('koikoi-seats');
  let held = false;
  for (const end = Date.now() + RELOAD_GRACE_MS; ;) {
    held = await new Promise((resolve) => {
      channel.onmessage = (ev) => { if (ev.data?.held === name) resolve(true); };
      channel.postMessage({ ask: name });
      setTimeout(() => resolve(false), 300);
    });
    if (!held || Date.now() > end) break;
  }
  if (held) {
    channel.close();
    throw refused();
  }
  channel.onmessage = (ev) => { if (ev.data?.ask === name) channel.postMessage({ held: name }); };
  try {
    return await fn();
  } finally {
    channel.close();
  }
}

/** @param {any} msg */
async function start(msg) {
  return holdingSeat(msg.id, () => startHeld(msg));
}

/** @param {any} msg */
async function startHeld(msg) {
  await ready();
  const me = msg.role === 'computer' ? Identity.generate(systemRandom) : await identity();
  const io = { post, deadlines: msg.link.kind === 'relay' };
  const options = {
    seat: msg.seat, identity: me, room: msg.room, password: msg.password || null, seed: systemRandom(32), name: msg.name ?? '',
    profile: msg.profile ? Profile.fromDict(msg.profile) : undefined, deadlines: msg.deadlines ?? undefined,
    autoAccept: msg.role === 'computer', rated: msg.rated ?? false, ratings: msg.ratings ?? '',
  };
  const meta = { mode: msg.mode, level: msg.level, playerSeed: toHex(systemRandom(8)), link: msg.link, startedAt: Date.now(), lang: msg.lang };
  if (msg.link.kind === 'port') {
    seat = await Seat.create({ id: msg.id, role: msg.role, options, meta }, io);
    return seat.run(portTransport(msg.port));
  }
  const url = msg.link.url;
  const host = msg.link.action === 'host';
  const first = host ? await openRoom(url, msg.link, msg.profile, msg.password) : await RelayClient.join(url, msg.link.code);
  options.room = first.code;
  // A host keeps its seat's resume token while it waits: a reloaded page takes the room back.
  meta.link = host ? { ...msg.link, code: first.code, token: toHex(first.token) } : { ...msg.link, code: first.code };
  seat = await Seat.create({ id: msg.id, role: msg.role, options, meta }, io);
  return pairThenRun(seat, url, first, host);
}

/**
 * Open the room a host waits in; the lobby shows what an older lobby reader shows (spec/relay.md
 * §4.2), never the password itself.
 * @param {string} url @param {any} link @param {any} profile a profile's dict @param {string | null} password
 */
function openRoom(url, link, profile, password) {
  return RelayClient.create(url, {
    public: !!link.public, listing: link.public && link.listing ? link.listing : undefined,
    meta: { rules: profile?.name ?? 'nintendo', rounds: profile?.rounds ?? 0, password: !!password },
  });
}

/**
 * Show the room, let a host wait there for its joiner, then play through it.
 * @param {Seat} s @param {string} url @param {RelayClient} first @param {boolean} host
 */
async function pairThenRun(s, url, first, host) {
  // The other seat leaving before the terms are accepted ends the match at once (Seat.peerLeft).
  first.onPeer((state) => { if (state === 'left' && first.leftWhileSteady) void s.peerLeft(); });
  post({ type: 'room', code: first.code, seat: s.peer.seat });
  post({ type: 'table', table: s.table() });
  if (host) {
    waiting = first;
    try {
      await first.waitForPeer();
    } catch (e) {
      // Cancelled meanwhile: the closed room is no error to show (review: "closed" flashed first).
      if (waiting !== first) return undefined;
      throw e;
    }
    if (waiting !== first) return undefined; // cancelled meanwhile
    waiting = null;
  }
  return s.run(relayLink(s, url, first));
}

/**
 * A host page reloaded while it waited for its joiner (nothing sent, nothing received): take the
 * room back with the saved resume token (spec/relay.md §8), so the code and link already shared
 * still work; while the relay does not answer, try again. Null when the relay answered that the
 * room is gone (the grace ran out, or a joiner came and left meanwhile).
 * @param {Seat} s @param {any} link
 */
async function roomBack(s, link) {
  const until = Date.now() + ROOM_BACK_MS;
  for (let delay = 0.5; ; delay = Math.min(5, delay * 2)) {
    if (reopening.cancelled) return null;
    try {
      const first = await RelayClient.resume(link.url, link.code, fromHex(link.token));
      if (reopening.cancelled) {
        await first.close();
        return null;
      }
      s.connectionState('connected');
      return first;
    } catch (e) {
      const reason = String(/** @type {any} */ (e)?.reason ?? '');
      // The relay says the room is gone (§8.3, §5.1): a new one. Anything else (no answer, a
      // connection closed before one, a busy relay) may pass: the shared code is worth waiting for.
      if (ROOM_GONE.has(reason) || Date.now() > until) return null;
      s.connectionState('reconnecting');
      await new Promise((r) => setTimeout(r, delay * 1000));
    }
  }
}

/** What a relay answers a resume whose room is gone (spec/relay.md §8.3, §5.1). */
const ROOM_GONE = new Set(['resume_unknown', 'resume_gap', 'bad_resume', 'resume_failed', 'peer_left', 'expired', 'room_not_found', 'rejected']);
/** How long a reloaded host tries to take its room back from a relay that does not answer: the relay's grace. */
const ROOM_BACK_MS = 60000;
/** A reloaded host taking its room back or opening a new one: Cancel stops it. */
let reopening = { cancelled: false };

/**
 * The waiting room of a reloaded host page closed meanwhile: nothing of the old seat was signed or
 * sent, so it gives way to a new room with the same choices (a new code and link to share) and a
 * fresh seed.
 * @param {Seat} old @param {{post: (msg: any) => void, deadlines?: boolean}} io
 */
async function reopenRoom(old, io) {
  const { setup, meta, id, role } = old.record;
  const link = /** @type {any} */ (meta.link);
  const first = await openRoom(link.url, link, setup.profile, setup.password);
  if (reopening.cancelled) {
    await first.close();
    return undefined;
  }
  const options = {
    seat: setup.seat, identity: new Identity(fromHex(setup.identity)), room: first.code, password: setup.password,
    seed: systemRandom(32), name: setup.name, profile: setup.profile ? Profile.fromDict(setup.profile) : undefined,
    deadlines: setup.deadlines ?? undefined, autoAccept: setup.autoAccept, rated: setup.rated, ratings: setup.ratings,
  };
  await deleteSeat(id);
  seat = await Seat.create({ id, role, options, meta: { ...meta, link: { ...link, code: first.code, token: toHex(first.token) }, startedAt: Date.now() } }, io);
  return pairThenRun(seat, link.url, first, true);
}

/** Close the waiting room on the relay and forget its seat (nobody joined: nothing was signed). */
async function cancel() {
  const client = waiting;
  waiting = null;
  if (!client) {
    // A reloaded host still taking its room back (or opening a new one): stop that, forget the seat.
    if (!reopening.cancelled && seat && seat.record.meta.link && /** @type {any} */ (seat.record.meta.link).token && seat.record.sent === 0) {
      reopening.cancelled = true;
      const id = seat.record.id;
      seat = null;
      await deleteSeat(id);
      post({ type: 'cancelled' });
    }
    return;
  }
  const id = seat?.record.id;
  seat = null;
  await client.close();
  if (id) await deleteSeat(id);
  post({ type: 'cancelled' });
}

/**
 * The core's retransmission link over the relay, pairing again through the lobby (spec/protocol.md
 * §12.1, §12.2) with the rejoin tag of the room the match started in; the seat binds the tag to
 * the session once both hold it. A resumed seat (`first` null) pairs through the lobby first.
 * @param {Seat} s @param {string} url @param {RelayClient | null} first
 */
function relayLink(s, url, first) {
  const code = String(/** @type {any} */ (s.record.meta.link).code);
  const connect = new RelayRendezvous(url, /** @type {0 | 1} */ (s.peer.seat), code, { first, pairTimeoutMs: 30000 });
  /** @type {ReturnType<typeof setInterval> | null} */
  let watching = null;
  return new LinkTransport(first, {
    rng: systemRandom, keepalive: 10, connect, giveUpMs: 10 * 60 * 1000, vouching: true, confirm: true, awayMs: AWAY_MS,
    onState: (state) => {
      if (watching) clearInterval(watching);
      watching = null;
      if (state === 'connected') {
        s.connectionState('connected');
        return;
      }
      // Pairing again (§12.2): whose connection is down? Ours while the relay does not answer us
      // (§12.4's record); the opponent's when it does and the opponent is not there. A repair that
      // begins has no answer yet (the last pairing's does not count), so the page is told nothing
      // for its first second rather than "connection lost" for a drop that was the opponent's (QA).
      connect.answered = false;
      const say = () => {
        if (s.finished && watching) clearInterval(watching);
        s.connectionState(connect.answered && !connect.reach.down ? 'peer_away' : 'reconnecting');
      };
      watching = setInterval(say, 1000);
    },
  });
}

/** @param {any} msg */
async function resume(msg) {
  return holdingSeat(msg.id, () => resumeHeld(msg));
}

/** @param {any} msg */
async function resumeHeld(msg) {
  await ready();
  const record = await loadSeat(msg.id);
  if (!record) throw Object.assign(new Error('no saved match'), { reason: 'no_saved_match' });
  const io = { post, deadlines: Boolean(record.meta.link && /** @type {any} */ (record.meta.link).kind === 'relay') };
  seat = await Seat.restore(msg.id, io);
  record.meta.resumedAt = Date.now();
  await saveSeat({ ...seat.record, meta: record.meta });
  const link = /** @type {any} */ (record.meta.link);
  if (link.kind === 'port') return seat.run(portTransport(msg.port));
  if (link.action === 'host' && link.token && seat.record.count === 0 && seat.record.sent === 0) {
    const waited = seat;
    reopening = { cancelled: false };
    const mine = reopening;
    const first = await roomBack(waited, link);
    if (mine.cancelled) return undefined;
    if (first && first.acceptedOnResume !== 0) {
      // The link had begun with a joiner before the reload (its frames counted, nothing of the
      // match saved): this stream cannot start again at 0; both seats pair again as after any drop.
      return waited.run(relayLink(waited, link.url, null));
    }
    return first ? pairThenRun(waited, link.url, first, true) : reopenRoom(waited, io);
  }
  return seat.run(relayLink(seat, link.url, null));
}

scope.onmessage = async (/** @type {MessageEvent} */ ev) => {
  const msg = ev.data;
  try {
    switch (msg.type) {
      case 'identity': {
        await ready();
        const me = await identity();
        post({ type: 'identity', fingerprint: me.fingerprint() });
        return;
      }
      case 'exportIdentity': await ready(); await exportIdentity(msg); return;
      case 'importIdentity': await ready(); await importIdentity(msg); return;
      case 'warm': await ready(); warmUp(); return;
      // Once the seat has run to its end its link has left the relay room (or gave up): the page
      // may end this worker now (Game.destroy waits for this after a finished match).
      case 'start': await start(msg); post({ type: 'closed' }); return;
      case 'resume': await resume(msg); post({ type: 'closed' }); return;
      case 'decide': await seat?.decide(msg.action); return;
      case 'accept': await seat?.acceptTerms(); return;
      case 'refuse': await seat?.refuseTerms(msg.reason === 'sas_differs' ? 'sas_differs' : 'terms_refused'); return;
      case 'resign': await seat?.resign(); return;
      case 'cancel': await cancel(); return;
      default: return;
    }
  } catch (e) {
    const err = /** @type {any} */ (e);
    // A relay error's detail (for `unreachable`, the relay's URL, which the page's words take).
    post({ type: 'error', reason: err?.reason ?? 'internal_error', message: String(err?.detail || err?.message || e) });
  }
};
