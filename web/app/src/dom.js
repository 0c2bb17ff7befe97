// A tiny element builder: h('button', {class: 'x', onclick}, [children]). Strings become text
// nodes (never HTML), so nothing a peer sends can inject markup; SVG from the card art (our own
// code) is the only markup set directly, through `svg()`.

/**
 * @param {string} tag
 * @param {{[name: string]: any}} [props]
 * @param {(Node | string | null | undefined | false)[] | Node | string} [children]
 * @returns {HTMLElement}
 */
export function h(tag, props = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = String(v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'text') el.textContent = String(v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of Array.isArray(children) ? children : [children]) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return el;
}

/**
 * A span holding SVG markup produced by the card art module.
 * @param {string} markup @param {string} [cls]
 */
export function svg(markup, cls = 'art') {
  const span = document.createElement('span');
  span.className = cls;
  span.innerHTML = markup;
  return span;
}

/** @param {Element} el */
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
}
