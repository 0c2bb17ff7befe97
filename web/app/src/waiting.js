// The host's waiting screen: the invite link with a copy button, the room code in large letters,
// a Cancel that closes the room on the relay, and the language switch (the screen is redrawn in
// the new language; the seat in its worker is not touched).
import { h } from './dom.js';
import { lang, setLang, t } from './i18n.js';

const SETTINGS = 'koikoi.settings';

/**
 * @param {any} table the seat's table (before pairing) @param {{code: string, settings: any, cancel: () => void, redraw: () => void}} o
 */
export function waitingScreen(table, o) {
  const code = o.code;
  const link0 = table.meta.link;
  const link = `${location.origin}${location.pathname}#join=${code}&relay=${encodeURIComponent(table.meta.link.url)}`;
  const host = table.seat === 0;
  const copied = h('span', { class: 'copied muted small', role: 'status' });
  const langSelect = h('select', {
    'aria-label': t('language'),
    onchange: (/** @type {Event} */ e) => {
      const value = /** @type {HTMLSelectElement} */ (e.target).value === 'ja' ? 'ja' : 'en';
      o.settings.lang = value;
      try { localStorage.setItem(SETTINGS, JSON.stringify(o.settings)); } catch { /* private mode: this page only */ }
      setLang(value);
      o.redraw();
    },
  }, [h('option', { value: 'en', selected: lang() === 'en' }, 'English'), h('option', { value: 'ja', selected: lang() === 'ja' }, '日本語')]);
  return h('section', { class: 'waiting panel' }, [
    h('div', { class: 'waitbar' }, [h('label', { class: 'lang' }, [t('language'), ' ', langSelect])]),
    h('h2', {}, host ? t('roomOpen') : t('roomCode', { code })),
    h('p', { class: 'muted small' }, t('code')),
    h('p', { class: 'code', 'data-code': code }, code),
    host ? h('p', {}, t('inviteHint')) : null,
    // What else a friend needs, and who else sees the room (QA: a public room with a password
    // said only "send the link"): never the password itself, which the page never shows or saves (it stays in memory for "open a new room").
    host && link0.public ? h('p', { class: 'listed' }, t('invitePublic')) : null,
    host && link0.password ? h('p', { class: 'needspassword' }, t('invitePassword')) : null,
    host ? h('div', { class: 'invite' }, [
      h('label', { class: 'linkfield' }, [t('inviteLink'), h('input', { class: 'link', readonly: true, value: link })]),
      h('button', { type: 'button', class: 'copy', onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
        } catch {
          const input = /** @type {HTMLInputElement | null} */ (document.querySelector('.waiting input.link'));
          input?.select();
        }
        copied.textContent = t('copied');
      } }, t('copy')),
      copied,
    ]) : null,
    h('p', { class: 'muted' }, host ? t('waitingJoin') : t('connecting')),
    host ? h('div', { class: 'choices' }, [h('button', { type: 'button', class: 'cancelroom', onclick: o.cancel }, t('cancelRoom'))]) : null,
  ]);
}
