/** The scores of `ssebench results`: the Wilson interval of a rate and the unbiased pass@k. No I/O. */

/** z for a two-sided 95 % interval */
const Z95 = 1.959963984540054;

/** Wilson score interval of x successes in n trials ([0, 0] for n = 0). */
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
