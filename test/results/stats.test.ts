/** Wilson intervals (of trials and over tasks), Newcombe's difference and the unbiased pass@k, against values worked out by hand or published. */
import { describe, expect, test } from "bun:test";
import { differenceInterval, meanPassAtK, passAtK, tasksInterval, wilson } from "../../src/results/stats.ts";

describe("wilson", () => {
  test("95 % intervals", () => {
    const [lo, hi] = wilson(5, 10);
    expect(lo).toBeCloseTo(0.236593, 6);
    expect(hi).toBeCloseTo(0.763407, 6);
    expect(wilson(0, 1)[0]).toBe(0);
    expect(wilson(0, 1)[1]).toBeCloseTo(0.793451, 6);
    expect(wilson(1, 1)[0]).toBeCloseTo(0.206549, 6);
    expect(wilson(1, 1)[1]).toBe(1);
    expect(wilson(0, 0)).toEqual([0, 0]);
  });
});

describe("the interval over tasks", () => {
  test("the Wilson interval of the tasks' means, n = tasks", () => {
    // Three tasks resolved in 2/2, 1/2 and 0/2 of their trials: p = 1.5/3 over n = 3 (not 3/6 over 6 trials).
    const [lo, hi] = tasksInterval([1, 0.5, 0]);
    expect(lo).toBeCloseTo(0.125334472, 8);
    expect(hi).toBeCloseTo(0.874665528, 8);
    // Nine tasks never resolved: not a point at 0 %.
    expect(tasksInterval(Array(9).fill(0))[0]).toBe(0);
    expect(tasksInterval(Array(9).fill(0))[1]).toBeCloseTo(0.299145048, 8);
    expect(tasksInterval([1, 1, 0.5, 0])).toEqual(wilson(2.5, 4));
    expect(tasksInterval([1, 1, 0.5, 0])[0]).toBeCloseTo(0.219426520, 8);
    expect(tasksInterval([])).toEqual([0, 0]);
  });
  test("Newcombe's interval of a difference (his 1998 example: 56/70 against 48/80 gives 0.0524 to 0.3339)", () => {
    const [lo, hi] = differenceInterval({ rate: 48 / 80, interval: wilson(48, 80) }, { rate: 56 / 70, interval: wilson(56, 70) });
    expect(lo).toBeCloseTo(0.0524315, 6);
    expect(hi).toBeCloseTo(0.3338727, 6);
    // 1 of 2 tasks before, 0 of 2 after.
    const [dlo, dhi] = differenceInterval({ rate: 0.5, interval: tasksInterval([1, 0]) }, { rate: 0, interval: tasksInterval([0, 0]) });
    expect(dlo).toBeCloseTo(-0.905468794, 8);
    expect(dhi).toBeCloseTo(0.272572785, 8);
  });
});

describe("pass@k", () => {
  test("1 - C(n-c, k) / C(n, k)", () => {
    expect(passAtK(2, 1, 1)).toBe(0.5);
    expect(passAtK(2, 1, 2)).toBe(1);
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 12); // 1 - 3/10
    expect(passAtK(10, 3, 5)).toBeCloseTo(1 - 21 / 252, 12);
    expect(passAtK(4, 0, 3)).toBe(0);
    expect(() => passAtK(1, 1, 2)).toThrow("pass@2 needs at least 2 samples (got 1)");
  });
  test("averaged over the tasks that have k samples", () => {
    expect(meanPassAtK([[2, 1], [2, 0], [1, 1]], 2)).toBe(0.5);
    expect(meanPassAtK([[2, 2], [2, 0], [1, 1]], 1)).toBeCloseTo(2 / 3, 12);
    expect(meanPassAtK([[1, 1]], 2)).toBeNull();
  });
});
