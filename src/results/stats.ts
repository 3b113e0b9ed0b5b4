/**
 * The scores of `ssebench results`: the Wilson interval of a rate (over tasks: see tasksInterval),
 * Newcombe's interval of a difference of two such rates, and the unbiased pass@k. No I/O.
 */

/** z for a two-sided 95 % interval */
const Z95 = 1.959963984540054;

/**
 * Wilson score interval of x successes in n trials ([0, 0] for n = 0). x may be fractional: the
 * sum of n values in [0, 1] (tasksInterval).
 */
export function wilson(x: number, n: number, z = Z95): [number, number] {
  if (n === 0) return [0, 0];
  const p = x / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * The 95 % interval of a resolved rate over tasks: each task's mean over its trials, and the Wilson
 * interval of their mean with the tasks as the sample (n = tasks). The tasks are the units a
 * benchmark samples, and a task's trials are not independent of each other, so counting trials as
 * the sample would make the interval too narrow. A mean of values in [0, 1] has at most the
 * variance of a Bernoulli variable with that mean, so this is the Wilson interval of one trial per
 * task when every task is all-or-nothing, and wider than needed otherwise; unlike a t-interval or
 * a bootstrap over tasks it does not shrink to a point when every task has the same mean (0 % or
 * 100 %). docs/jobs.md says why.
 */
export function tasksInterval(means: readonly number[]): [number, number] {
  return wilson(means.reduce((s, m) => s + m, 0), means.length);
}

/** A rate with its interval: the inputs of a difference. */
export interface RateInterval {
  rate: number;
  interval: [number, number];
}

/**
 * Newcombe's hybrid score interval of b.rate - a.rate (method 10 of Newcombe 1998), from the two
 * rates' own Wilson intervals; the samples are independent (two disjoint sets of tasks).
 */
export function differenceInterval(a: RateInterval, b: RateInterval): [number, number] {
  const d = b.rate - a.rate;
  const [la, ua] = a.interval;
  const [lb, ub] = b.interval;
  return [d - Math.sqrt((b.rate - lb) ** 2 + (ua - a.rate) ** 2), d + Math.sqrt((ub - b.rate) ** 2 + (a.rate - la) ** 2)];
}

/**
 * The unbiased estimator of pass@k (Chen et al. 2021) for one task with n samples, c of them
 * correct: 1 - C(n-c, k) / C(n, k), as a product so that large n stays exact enough.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n) throw new RangeError(`pass@${k} needs at least ${k} samples (got ${n})`);
  if (n - c < k) return 1;
  let missAll = 1;
  for (let i = n - c + 1; i <= n; i++) missAll *= 1 - k / i;
  return 1 - missAll;
}

/** pass@k averaged over tasks, each given as [samples, correct]; tasks with fewer than k samples are left out. */
export function meanPassAtK(tasks: readonly (readonly [number, number])[], k: number): number | null {
  const usable = tasks.filter(([n]) => n >= k);
  if (usable.length === 0) return null;
  return usable.reduce((sum, [n, c]) => sum + passAtK(n, c, k), 0) / usable.length;
}
