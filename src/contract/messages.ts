/** The texts of the readers both binaries share; tests assert them. */
export const contractMsg = {
  plugins: (problem: string) => `ssebench-entrypoint: invalid plugin configuration: ${problem}`,
};
