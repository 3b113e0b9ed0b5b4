/**
 * What the agent's calls may hold of the entrypoint (docs/container-contract.md §12 "Limits"):
 * requests in progress (from their arrival until their answer is sent or the client leaves),
 * diffs answered but not read yet, request bodies. A call over a limit is refused at once (429),
 * so no way of calling the tool API can run the entrypoint out of memory; answers are streamed
 * and give their hold back when sent.
 */

/** Requests in progress at once, queued checks included. */
export const MAX_REQUESTS = 8;
/** `GET /sse/v1/diff` answers (each up to SSE_MAX_PATCH_MB) sent but not yet read by the client. */
export const MAX_UNREAD_DIFFS = 2;
/** Largest request body (Bun answers 413 past it before the request reaches a route). */
export const MAX_REQUEST_BODY = 1 << 20;

export class Limits {
  private requests = 0;
  private unreadDiffs = 0;

  /** A request arrives: false when MAX_REQUESTS are in progress already. */
  enter(): boolean {
    if (this.requests >= MAX_REQUESTS) return false;
    this.requests++;
    return true;
  }

  /** A diff is about to be captured for an answer: false when MAX_UNREAD_DIFFS wait to be read. */
  holdDiff(): boolean {
    if (this.unreadDiffs >= MAX_UNREAD_DIFFS) return false;
    this.unreadDiffs++;
    return true;
  }

  /** A held diff that will not be answered after all (its capture failed). */
  releaseDiff(): void {
    this.unreadDiffs--;
  }

  /**
   * The answer to a request that `enter` let in, its body `bytes` streamed in pieces (chunked: the
   * stream's end or the client's leaving is what tells that the answer is gone): its request (and
   * its diff, when `diff`) ends once the body is sent or the client leaves.
   */
  answer(res: Response, bytes: Uint8Array, o: { diff?: boolean }): Response {
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      this.requests--;
      if (o.diff) this.unreadDiffs--;
    };
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (at >= bytes.length) {
          end();
          c.close();
          return;
        }
        c.enqueue(bytes.subarray(at, at + PIECE));
        at += PIECE;
      },
      cancel: end,
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  }
}

const PIECE = 1 << 16;
