// el makes an element: the page's panels, the teaching tools and the
// side-by-side view build their DOM with it.

/** el makes an element with properties and children: class, title, lang,
 * role, tabindex, data-* and aria-* become attributes, any other key a property (onclick,
 * value, label…); null and false children are left out. */
export function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('data-') || k.startsWith('aria-') || k === 'title' || k === 'lang' || k === 'role' || k === 'tabindex') e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const k of kids) if (k != null && k !== false) e.append(k);
  return e;
}
