// What the player sees happen around the board: card motion (motion.js), the opponent's last
// move marked until the player's next action, the move log (movelog.js), announcements
// (announce.js) and sound (sound.js), with the sound toggle. game.js measures before each redraw
// and calls `after` once the board shows the new table; nothing here holds a table back.
import { CARDS } from '../../src/api/rules.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { Announcer } from './announce.js';
import { Motion, motionMs } from './motion.js';
import { MoveLog } from './movelog.js';
import { Sound } from './sound.js';

/**
 * The cards of the opponent's last half-turn while it is the latest (so until the player's next
 * action), else none.
 * @param {any} table @returns {number[]}
 */
export function lastMoveCards(table) {
  const turns = table.history && table.round ? table.history.turns : [];
  const x = turns[turns.length - 1];
  if (!x || x.seat === table.seat) return [];
  return [x.played, ...x.took, x.drawn, ...x.drawTook].filter((c) => c !== null);
}

export class PlayView {
  /** @param {HTMLElement} boardEl */
  constructor(boardEl) {
    this.boardEl = boardEl;
    this.motion = new Motion(boardEl);
    this.sound = new Sound();
    this.log = new MoveLog();
    this.announcer = new Announcer();
    this.soundButton = h('button', { class: 'secondary soundtoggle', type: 'button', onclick: () => this.#toggleSound() });
    this.#soundLabel();
    this.el = h('div', { class: 'playextras' }, [h('div', { class: 'extrasbar' }, [this.log.el, this.soundButton]), this.announcer.el]);
    /** @type {any} */
    this.prev = null;
  }

  destroy() {
    this.motion.destroy();
    this.sound.destroy();
    this.announcer.destroy();
  }

  #toggleSound() {
    this.sound.set(!this.sound.on);
    this.#soundLabel();
  }

  #soundLabel() {
    this.soundButton.textContent = this.sound.on ? t('soundOn') : t('soundOff');
    this.soundButton.setAttribute('aria-pressed', String(this.sound.on));
    this.soundButton.title = t('soundLabel');
  }

  /** Where the cards are before a redraw. */
  before() {
    return this.motion.measure();
  }

  /**
   * The board now shows `table`: move, mark, log, announce and sound what changed.
   * @param {import('./motion.js').Snapshot} snap @param {any} table @param {[string, string]} names
   */
  after(snap, table, names) {
    const prev = this.prev;
    this.prev = table;
    this.motion.play(snap, prev, table);
    for (const c of lastMoveCards(table)) {
      const el = this.boardEl.querySelector(`.board .card[data-card="${cssId(c)}"]`);
      if (!el) continue;
      el.classList.add('lastmove');
      el.setAttribute('aria-label', `${el.getAttribute('aria-label') ?? ''} — ${t('lastMoveMark')}`);
    }
    this.log.update(table, names);
    const kinds = this.announcer.update(prev, table, names, motionMs());
    if (kinds.includes('koikoi')) this.sound.play('koikoi');
    else if (kinds.includes('round') || kinds.includes('stop')) this.sound.play('round');
    else if (prev && prev.round && table.round && prev.deal === table.deal) {
      const piled = (/** @type {any} */ r) => r.piles[0].length + r.piles[1].length;
      const placed = (/** @type {any} */ r) => r.field.length + r.stockCount;
      if (piled(table.round) > piled(prev.round)) this.sound.play('capture');
      else if (placed(table.round) !== placed(prev.round) || table.round.hand.length !== prev.round.hand.length) this.sound.play('play');
    }
  }
}

/** A card's id as the board writes it in data-card. @param {number} c */
function cssId(c) {
  return CARDS[c].id;
}
