// The one WebSocket to the server (protocol version 1): handshake, ping
// answers, reconnection with backoff, and dispatch of frames by their "t".
// Pages subscribe with `on(type, fn)` and (re)send their subscriptions from
// `whenReady(fn)`, which runs now if connected and again after each reconnect.
//
// Leaving the page is leaving the board: the socket is closed when the page is
// hidden for good or frozen (`pagehide`, `freeze`), and opened again when the
// page comes back (`pageshow` from the back/forward cache, `resume`), where
// the pages' `whenReady` hooks resync (`watch` with `since`). Without that, a
// page kept in the back/forward cache keeps its connection open but can no
// longer answer, and the server would count the player present until the
// socket falls silent.

const PROTOCOL_VERSION = 1;
const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];

class Socket {
  constructor() {
    this.ws = null;
    this.ready = false;
    this.handlers = new Map();
    this.readyHooks = new Set();
    this.attempt = 0;
    this.player = null;
    this.retryTimer = null;
    this.closedByUs = false;
    this.suspended = false;
    // When the last frame came (the connection banner's liveness check).
    this.lastFrameAt = performance.now();
  }

  connect() {
    this.closedByUs = false;
    this.suspended = false;
    clearTimeout(this.retryTimer);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws`);
    this.ws = ws;
    this.lastFrameAt = performance.now();
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ t: "hello", v: PROTOCOL_VERSION }));
    });
    ws.addEventListener("message", (event) => this.receive(ws, event.data));
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ready = false;
      this.emit("status", { connected: false });
      if (!this.closedByUs) this.scheduleReconnect();
    });
  }

  /** Drops the connection and opens a new one (after sign-in the session cookie changes). */
  reconnect() {
    this.closedByUs = true;
    if (this.ws) this.ws.close();
    this.ws = null;
    this.ready = false;
    this.attempt = 0;
    this.connect();
  }

  /** The page is hidden or frozen: close the socket, and stay closed until `resume`. */
  suspend() {
    clearTimeout(this.retryTimer);
    this.suspended = true;
    const ws = this.ws;
    if (!ws) return;
    this.closedByUs = true;
    this.ws = null;
    this.ready = false;
    ws.close(1000, "page hidden");
    this.emit("status", { connected: false });
  }

  /** The page is shown again: reconnect (the pages' whenReady hooks resync). */
  resume() {
    if (!this.suspended) return;
    this.suspended = false;
    this.attempt = 0;
    this.connect();
  }

  scheduleReconnect() {
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    const delay = base + Math.random() * base * 0.3;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  receive(ws, data) {
    if (this.ws !== ws) return;
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    this.lastFrameAt = performance.now();
    this.emit("frame", frame);
    if (frame.t === "ping") {
      this.send({ t: "pong" });
      return;
    }
    if (frame.t === "welcome") {
      this.ready = true;
      this.attempt = 0;
      this.player = frame.player;
      this.emit("status", { connected: true });
      this.emit("welcome", frame);
      for (const hook of [...this.readyHooks]) hook(frame);
      return;
    }
    if (frame.t === "error" && frame.code === "version") this.closedByUs = true;
    this.emit(frame.t, frame);
  }

  emit(type, frame) {
    for (const fn of [...(this.handlers.get(type) || [])]) fn(frame);
  }

  /** Calls `fn(frame)` for each frame of this type; returns the unsubscribe function. */
  on(type, fn) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add(fn);
    return () => this.handlers.get(type).delete(fn);
  }

  /** Runs `fn` now when connected and after every (re)connection; returns the unsubscribe function. */
  whenReady(fn) {
    this.readyHooks.add(fn);
    if (this.ready) fn();
    return () => this.readyHooks.delete(fn);
  }

  /** Sends a frame; returns false when not connected (the caller's whenReady hook resends). */
  send(frame) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    if (!this.ready && frame.t !== "pong") return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }
}

export const socket = new Socket();

window.addEventListener("pagehide", () => socket.suspend());
window.addEventListener("pageshow", (event) => {
  if (event.persisted) socket.resume();
});
document.addEventListener("freeze", () => socket.suspend());
document.addEventListener("resume", () => socket.resume());
