// Asking again every few seconds, only while the page is visible: a hidden tab asks nothing,
// and asks at once when it is shown again.

export class Poller {
  /** `tick` is awaited each time; when it answers false, the polling stops. */
  constructor(tick, interval) {
    this.tick = tick;
    this.interval = interval;
    this.timer = null;
    this.running = false;
    this.busy = false;
    this.onVisibility = () => {
      if (document.visibilityState === "visible") this.now();
      else this.clear();
    };
  }

  start() {
    if (this.running) return;
    this.running = true;
    document.addEventListener("visibilitychange", this.onVisibility);
    this.now();
  }

  stop() {
    this.running = false;
    this.clear();
    document.removeEventListener("visibilitychange", this.onVisibility);
  }

  clear() {
    clearTimeout(this.timer);
    this.timer = null;
  }

  /** Ask now (unless a request is under way), then again after the interval. */
  async now() {
    this.clear();
    if (!this.running || this.busy || document.visibilityState !== "visible") return;
    this.busy = true;
    let more = true;
    try {
      more = (await this.tick()) !== false;
    } finally {
      // A tick shows its own refusals; anything it throws is a fault of the page, and
      // surfaces, but the polling goes on.
      this.busy = false;
      if (!more) this.stop();
      else if (this.running && document.visibilityState === "visible") {
        this.timer = setTimeout(() => this.now(), this.interval);
      }
    }
  }
}
