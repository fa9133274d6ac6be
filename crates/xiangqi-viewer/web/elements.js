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
