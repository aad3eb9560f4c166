// The Node runner's `k6/metrics`: Counter, Gauge, Rate and Trend whose add()
// emits a sample with the current context's tags plus the call's own.
import { contextTags, current, emit, requireInit } from './vu-state.js';

const NAME = /^[a-zA-Z_][a-zA-Z0-9_]{0,127}$/;

class Metric {
  /**
   * @param {string} name
   * @param {'counter' | 'gauge' | 'rate' | 'trend'} type
   * @param {boolean} isTime
   */
  constructor(name, type, isTime) {
    requireInit('creating a metric');
    if (!NAME.test(name)) throw new Error(`invalid metric name ${name}`);
    this.name = name;
    this.type = type;
    this.isTime = isTime;
    current().declaredMetrics.push({ name, type, time: isTime });
  }

  /**
   * @param {number | boolean} value
   * @param {Record<string, string>} [tags]
   */
  add(value, tags = {}) {
    const number = typeof value === 'boolean' ? Number(value) : Number(value);
    if (!Number.isFinite(number)) throw new Error(`metric ${this.name}: ${value} is not a number`);
    emit(this.name, this.type, this.type === 'rate' ? (number !== 0 ? 1 : 0) : number, { ...contextTags(), ...tags }, this.isTime);
  }
}

export class Counter extends Metric {
  /** @param {string} name */
  constructor(name) {
    super(name, 'counter', false);
  }
}
export class Gauge extends Metric {
  /** @param {string} name @param {boolean} [isTime] */
  constructor(name, isTime = false) {
    super(name, 'gauge', isTime);
  }
}
export class Rate extends Metric {
  /** @param {string} name */
  constructor(name) {
    super(name, 'rate', false);
  }
}
export class Trend extends Metric {
  /** @param {string} name @param {boolean} [isTime] */
  constructor(name, isTime = false) {
    super(name, 'trend', isTime);
  }
}

export default { Counter, Gauge, Rate, Trend };
