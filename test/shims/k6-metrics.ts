// Shim of "k6/metrics": every add() is recorded with its metric name and tags.
import { k6State } from "./k6-state.ts";

class Metric {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
  add(value: number | boolean, tags?: Record<string, string>): void {
    k6State.metrics.push({ metric: this.name, value: Number(value), tags });
  }
}

export class Counter extends Metric {}
export class Trend extends Metric {}
export class Rate extends Metric {}
export class Gauge extends Metric {}
