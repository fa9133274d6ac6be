// The two clocks of a game, ticking down locally between the server's
// updates. The server's `clocks` and `running` are the truth; the client only
// subtracts the time passed since it received them.

export function formatClock(ms) {
  const total = Math.max(0, ms);
  const tenths = Math.floor(total / 100) % 10;
  const seconds = Math.floor(total / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor(seconds / 60) % 60;
  const s = seconds % 60;
  const pad = (n) => String(n).padStart(2, "0");
  if (h > 0) return `${h}:${pad(m)}:${pad(s)}`;
  if (total < 10000) return `${m}:${pad(s)}.${tenths}`;
  return `${m}:${pad(s)}`;
}

export class Clocks {
  /** `elements` maps "red"/"black" to the element that shows that side's time. */
  constructor(elements) {
    this.elements = elements;
    this.clocks = { red: 0, black: 0 };
    this.running = null;
    this.at = performance.now();
    this.timer = setInterval(() => this.render(), 100);
  }

  update(clocks, running) {
    this.frozen = false;
    if (clocks) this.clocks = { ...clocks };
    this.running = running || null;
    this.at = performance.now();
    this.render();
  }

  remaining(side) {
    const base = this.clocks[side] || 0;
    return side === this.running && !this.frozen ? base - (performance.now() - this.at) : base;
  }

  /** Stops counting down (the connection is lost) until the next `update` from the server. */
  freeze() {
    if (this.frozen) return;
    this.clocks = { red: this.remaining("red"), black: this.remaining("black") };
    this.frozen = true;
    this.render();
  }

  render() {
    for (const side of ["red", "black"]) {
      const element = this.elements[side];
      if (!element) continue;
      const left = this.remaining(side);
      element.textContent = formatClock(left);
      element.classList.toggle("running", side === this.running && !this.frozen);
      element.classList.toggle("frozen", side === this.running && Boolean(this.frozen));
      element.classList.toggle("low", left < 20000);
    }
  }

  stop() {
    clearInterval(this.timer);
  }
}
