import type { RetryInfo } from '../core/ui';

/** Calls `tick` every `ms` until the returned function is called. */
export type Ticker = (ms: number, tick: () => void) => () => void;

const intervalTicker: Ticker = (ms, tick) => {
  const timer = setInterval(tick, ms);
  timer.unref?.(); // a countdown never keeps the process alive
  return () => clearInterval(timer);
};

/**
 * A run of provider retries, for the stream renderer: whether one is under way (anything else
 * printed ends it), and on a terminal the seconds left of the current wait, drawn again each second
 * until the next try starts.
 */
export class RetryCountdown {
  private stopTicking: (() => void) | undefined;
  /** A retry was announced and nothing else was printed since. */
  active = false;

  constructor(
    private readonly now: () => number,
    private readonly every: Ticker = intervalTicker,
    private readonly draw: (info: RetryInfo, secondsLeft: number) => void,
  ) {}

  /** A retry waits `info.delayMs`; `live`: draw it now and count down (a terminal). */
  start(info: RetryInfo, live: boolean): void {
    this.stop();
    this.active = true;
    if (!live) return;
    const until = this.now() + info.delayMs;
    const left = () => Math.max(0, Math.ceil((until - this.now()) / 1000));
    let shown = left();
    this.draw(info, shown);
    if (shown === 0) return;
    this.stopTicking = this.every(1000, () => {
      const now = left();
      if (now === shown) return;
      shown = now;
      this.draw(info, now);
      if (now === 0) this.stopCountdown();
    });
  }

  /** The run is over (a try answered, or something else was printed). */
  stop(): void {
    this.stopCountdown();
    this.active = false;
  }

  private stopCountdown(): void {
    this.stopTicking?.();
    this.stopTicking = undefined;
  }
}
