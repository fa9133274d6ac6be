// Move and capture sounds, synthesised with WebAudio (no sound files): a
// short wooden knock for a move, a lower double knock for a capture. The
// player's choice (on by default) is kept in this browser's localStorage.

const STORE_KEY = "xiangqi.sounds";
let context = null;

/** Whether sounds are on in this browser. */
export function soundsOn() {
  try {
    return localStorage.getItem(STORE_KEY) !== "off";
  } catch {
    return true;
  }
}

/** Turns sounds on or off in this browser. */
export function setSoundsOn(on) {
  try {
    localStorage.setItem(STORE_KEY, on ? "on" : "off");
  } catch {
    // A browser without storage keeps the default.
  }
}

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  // Browsers start a context suspended until the page has had a gesture.
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** One knock: a short sine with a fast pitch drop and a quick decay. */
function knock(ctx, at, pitch, loudness) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = "triangle";
  osc.frequency.setValueAtTime(pitch, at);
  osc.frequency.exponentialRampToValueAtTime(pitch * 0.55, at + 0.08);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(loudness, at + 0.005);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.12);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + 0.13);
}

/** Plays "move" or "capture" (nothing when muted); returns whether it played. */
export function playSound(kind) {
  if (!soundsOn()) return false;
  const ctx = audio();
  if (!ctx) return false;
  const now = ctx.currentTime + 0.01;
  if (kind === "capture") {
    knock(ctx, now, 330, 0.5);
    knock(ctx, now + 0.07, 220, 0.45);
  } else {
    knock(ctx, now, 520, 0.35);
  }
  // For tests and tools: the sounds played so far and the last one.
  const root = document.documentElement.dataset;
  root.soundCount = String(Number(root.soundCount || 0) + 1);
  root.lastSound = kind;
  return true;
}
