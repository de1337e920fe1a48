/** A uniform sample of at most `capacity` values of a stream (reservoir sampling, Algorithm R), seeded: reproducible. */
export class Reservoir {
  readonly values: number[] = [];
  /** Values offered so far. */
  seen = 0;
  readonly #capacity: number;
  #state: number;

  constructor(capacity: number, seed = 1) {
    this.#capacity = capacity;
    this.#state = seed >>> 0 || 1;
  }

  add(value: number): void {
    this.seen++;
    if (this.values.length < this.#capacity) {
      this.values.push(value);
      return;
    }
    const at = Math.floor(this.#random() * this.seen);
    if (at < this.#capacity) this.values[at] = value;
  }

  /** xorshift32: enough for sampling, and the same sample on every run. */
  #random(): number {
    let x = this.#state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.#state = x >>> 0;
    return this.#state / 4294967296;
  }
}
