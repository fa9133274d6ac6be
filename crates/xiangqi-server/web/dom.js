import { t } from "./i18n.js";

// A tiny element builder for the pages: h("div", {class: "x"}, "text", child).

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : String(child));
  }
}

/** A link handled by the client's router. */
export function link(href, ...children) {
  return h("a", { href, "data-link": true }, ...children);
}

/** A player's name as a link to their page (engines and guests have no page). */
export function playerLink(player) {
  if (!player) return "?";
  const label = player.rating ? `${player.name} (${player.rating})` : player.name;
  if (player.engine_level !== undefined || player.guest) return h("span", { class: "player-name" }, label);
  const named = link(`/players/${encodeURIComponent(player.name)}`, label);
  return player.bot ? h("span", { class: "player-name" }, botBadge(), named) : named;
}

/** The badge before a bot's name. */
export function botBadge() {
  return h("span", { class: "badge-bot", title: t("bots.badge_title") }, t("bots.badge"));
}
