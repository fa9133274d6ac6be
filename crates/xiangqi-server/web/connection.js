// The connection banner: "connection lost" while the socket is closed, or
// open but silent (a stalled network: the client pings every 3 s and hears
// nothing for 7 s). While it shows, pages stop their local clocks; it goes
// when the server answers again. A socket silent for 15 s is dropped and
// opened again, since a stalled connection rarely recovers by itself.

import { socket } from "./socket.js";
import { h } from "./dom.js";
import { onLanguageChange, t } from "./i18n.js";

const PING_EVERY_MS = 3000;
const LOST_AFTER_MS = 7000;
const RECONNECT_AFTER_MS = 15000;

let lost = false;
const listeners = new Set();
const banner = h("div", { class: "connection-banner", id: "connection-banner", role: "alert", hidden: true });

function setLost(now) {
  if (lost === now) return;
  lost = now;
  banner.hidden = !now;
  for (const fn of [...listeners]) fn(now);
}

/** Whether the banner shows. */
export function connectionLost() {
  return lost;
}

/** Calls `fn(lost)` whenever the connection is lost or back; returns the unsubscribe function. */
export function onConnection(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function check() {
  const silent = performance.now() - socket.lastFrameAt;
  if (socket.suspended) return;
  if (socket.ready) socket.send({ t: "ping" });
  if (!socket.ready || silent > LOST_AFTER_MS) setLost(true);
  if (socket.ws && silent > RECONNECT_AFTER_MS) socket.reconnect();
}

export function startConnectionBanner() {
  // Written now, once the catalogues are loaded, and again in a new language.
  banner.textContent = t("connection.lost");
  onLanguageChange(() => (banner.textContent = t("connection.lost")));
  document.body.prepend(banner);
  socket.on("status", ({ connected }) => {
    if (!connected && !socket.suspended) setLost(true);
  });
  // Any frame is the server answering: the welcome after a reconnect, a pong.
  socket.on("frame", () => {
    if (socket.ready) setLost(false);
  });
  socket.on("welcome", () => setLost(false));
  setInterval(check, PING_EVERY_MS);
}
