/** Wilson intervals and the unbiased pass@k, against values worked out by hand. */
import { describe, expect, test } from "bun:test";
import { meanPassAtK, passAtK, wilson } from "../../src/results/stats.ts";

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
