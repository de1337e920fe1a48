/**
 * The virtual clock. Virtual time runs `timeScale` times as fast as real time and can be advanced at once through
 * the control API. Booking timestamps, expiry (5 days) and supplier decisions live on it; the rate limiter and the
 * webhook sender use real time (their headers and schedules are checked against the partner's own clock).
 */

interface Task {
  at: number;
  seq: number;
  run: () => void;
}

/** Longest real delay handed to setTimeout at once; the scheduler re-checks after it. */
const MAX_TIMER_MS = 60 * 60 * 1000;

export class VirtualClock {
  #anchorReal = Date.now();
  #anchorVirtual = Date.now();
  #timeScale: number;
  #heap: Task[] = [];
  #seq = 0;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(timeScale: number) {
    this.#timeScale = timeScale;
  }

  /** Virtual now, milliseconds since the epoch. */
  now(): number {
    return this.#anchorVirtual + (Date.now() - this.#anchorReal) * this.#timeScale;
  }

  get timeScale(): number {
    return this.#timeScale;
  }

  get offsetMs(): number {
    return this.now() - Date.now();
  }

  setTimeScale(scale: number): void {
    const now = this.now();
    this.#anchorReal = Date.now();
    this.#anchorVirtual = now;
    this.#timeScale = scale;
    this.#arm();
  }

  /** Jumps virtual time forward and runs every task that fell due, in due order. */
  advance(ms: number): void {
    const now = this.now();
    this.#anchorReal = Date.now();
    this.#anchorVirtual = now + ms;
    this.#runDue();
  }

  /** Back to real time at the given scale, dropping every scheduled task. */
  reset(timeScale: number): void {
    this.#anchorReal = Date.now();
    this.#anchorVirtual = this.#anchorReal;
    this.#timeScale = timeScale;
    this.#heap = [];
    this.#arm();
  }

  /** Runs `run` when virtual time reaches `at` (ms since epoch). */
  at(at: number, run: () => void): void {
    this.#push({ at, seq: this.#seq++, run });
    this.#arm();
  }

  get pendingTasks(): number {
    return this.#heap.length;
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#heap = [];
  }

  #runDue(): void {
    const now = this.now();
    for (let top = this.#heap[0]; top !== undefined && top.at <= now; top = this.#heap[0]) {
      this.#pop();
      try {
        top.run();
      } catch (error) {
        process.stderr.write(`scheduled task failed: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
    this.#arm();
  }

  #arm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const top = this.#heap[0];
    if (top === undefined || this.#stopped) return;
    const realDelay = Math.max(0, (top.at - this.now()) / this.#timeScale);
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#runDue();
      },
      Math.min(MAX_TIMER_MS, Math.ceil(realDelay)),
    );
    this.#timer.unref();
  }

  #less(a: Task, b: Task): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  #push(task: Task): void {
    const heap = this.#heap;
    heap.push(task);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent];
      if (p === undefined || !this.#less(task, p)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = task;
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop();
    if (last === undefined || heap.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = last;
      let at = -1;
      const left = heap[l];
      const right = heap[r];
      if (left !== undefined && this.#less(left, smallest)) {
        smallest = left;
        at = l;
      }
      if (right !== undefined && this.#less(right, smallest)) {
        smallest = right;
        at = r;
      }
      if (at === -1) break;
      heap[i] = smallest;
      i = at;
    }
    heap[i] = last;
  }
}
