/**
 * The one error type users see. Everything the product reports about bad input, a failed check or
 * an unreachable service is a UserError: the CLI prints its message as one line and exits with its
 * code. Any other exception is a bug and is allowed to show its stack.
 */
export const ExitCode = {
  ok: 0,
  /** invalid input, failed check, unreachable service */
  failure: 1,
  /** bad flags or arguments */
  usage: 2,
  /** `dataset verify --repeat`: the repetitions of a task graded a check differently (a flaky PoC or test) */
  disagreement: 3,
  /** the agent ran out of time (inside the container) */
  timeout: 124,
  /** an unexpected exception: a bug in ssebench */
  internal: 70,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export class UserError extends Error {
  override readonly name = "UserError";
  constructor(
    message: string,
    readonly exitCode: number = ExitCode.failure,
  ) {
    super(message);
  }
}

/** A UserError for a malformed command line (exit 2). */
export function usageError(message: string): UserError {
  return new UserError(message, ExitCode.usage);
}

/** The text of any thrown value, for messages that name a low-level cause. */
export function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    // Node-style errors repeat the code in the message ("ENOENT: no such file …"); keep it once.
    return code && !cause.message.startsWith(code) ? `${code}: ${cause.message}` : cause.message;
  }
  return String(cause);
}
