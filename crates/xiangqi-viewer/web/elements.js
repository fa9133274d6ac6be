// Building DOM nodes for the viewer and the explorer's table:
// `make("div", {class: "x", onclick: f}, ...children)` (attributes whose
// value is null, undefined or false are left out; `on…` ones are listeners;
// `style` is set through the style object),
// and `makeSvg(name, attrs, parent)` for SVG.

export function make(name, attrs = {}, ...children) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    // Through the style object rather than the attribute: a page whose
    // Content-Security-Policy has no 'unsafe-inline' styles (the server's)
    // refuses style attributes but not this.
    else if (key === "style") node.style.cssText = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function makeSvg(name, attrs = {}, parent = null) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * The words of a component: `english` (key -> text with `{name}`
 * placeholders, or a function of the arguments where the number matters),
 * unless the page gives its own `override(key, args)` (its language).
 */
export function wordsOf(english, override) {
  return (key, args = {}) => {
    const given = override ? override(key, args) : undefined;
    if (given !== undefined && given !== null) return String(given);
    const entry = english[key];
    const text = typeof entry === "function" ? entry(args) : entry;
    return String(text === undefined ? key : text).replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole));
  };
}
