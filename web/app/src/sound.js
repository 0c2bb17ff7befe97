// Short sound effects made in the page with WebAudio (no sound files): a card laid down, a
// capture, a koi-koi call and a round's end. Off or on by a toggle that localStorage remembers.
// The audio context starts on the player's first press (browsers allow sound only after one);
// a browser without WebAudio stays silent.

export const SOUND_KEY = 'koikoi.sound';

/** @typedef {'play' | 'capture' | 'koikoi' | 'round'} Effect */

export class Sound {
  constructor() {
    /** @type {AudioContext | null} */
    this.ctx = null;
    let stored = null;
    try { stored = localStorage.getItem(SOUND_KEY); } catch { /* no storage */ }
    this.on = stored !== 'off';
    this.unlock = () => this.#context();
    document.addEventListener('pointerdown', this.unlock, { capture: true });
    document.addEventListener('keydown', this.unlock, { capture: true });
  }

  destroy() {
    document.removeEventListener('pointerdown', this.unlock, { capture: true });
    document.removeEventListener('keydown', this.unlock, { capture: true });
    this.ctx?.close().catch(() => {});
    this.ctx = null;
  }

  /** @param {boolean} on */
  set(on) {
    this.on = on;
    try { localStorage.setItem(SOUND_KEY, on ? 'on' : 'off'); } catch { /* no storage */ }
  }

  #context() {
    if (!this.on) return null;
    try {
      if (!this.ctx) {
        const AC = /** @type {typeof AudioContext | undefined} */ (globalThis.AudioContext ?? /** @type {any} */ (globalThis).webkitAudioContext);
        if (!AC) return null;
        this.ctx = new AC();
      }
      if (this.ctx.state === 'suspended') this.ctx.resume().catch(() => {});
      return this.ctx;
    } catch {
      return null;
    }
  }

  /** @param {Effect} effect */
  play(effect) {
    if (!this.on || !this.ctx || this.ctx.state !== 'running') return;
    const ctx = this.ctx;
    const t = ctx.currentTime + 0.01;
    if (effect === 'play') this.#knock(t, 0.9);
    else if (effect === 'capture') { this.#knock(t, 1); this.#knock(t + 0.07, 0.7); }
    else if (effect === 'koikoi') [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => this.#tone(f, t + i * 0.08, 0.22, 'triangle', 0.18));
    else [392, 493.88, 587.33].forEach((f) => this.#tone(f, t, 0.7, 'sine', 0.12));
  }

  /** A card laid on the table: a short filtered noise burst. @param {number} at @param {number} level */
  #knock(at, level) {
    const ctx = /** @type {AudioContext} */ (this.ctx);
    const n = Math.floor(ctx.sampleRate * 0.06);
    const buf = ctx.createBuffer(1, n, ctx.sampleRate);
    const data = buf.getChannelData(0);
    for (let i = 0; i < n; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / n) ** 3;
    const src = ctx.createBufferSource();
    src.buffer = buf;
    const filter = ctx.createBiquadFilter();
    filter.type = 'bandpass';
    filter.frequency.value = 1800;
    filter.Q.value = 0.8;
    const gain = ctx.createGain();
    gain.gain.value = 0.5 * level;
    src.connect(filter).connect(gain).connect(ctx.destination);
    src.start(at);
  }

  /** @param {number} freq @param {number} at @param {number} len @param {OscillatorType} type @param {number} level */
  #tone(freq, at, len, type, level) {
    const ctx = /** @type {AudioContext} */ (this.ctx);
    const osc = ctx.createOscillator();
    osc.type = type;
    osc.frequency.value = freq;
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(level, at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + len);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(at + len + 0.05);
  }
}
