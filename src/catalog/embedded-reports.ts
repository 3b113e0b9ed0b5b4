/**
 * The crash reports of the built-in demo dataset, compiled into the binary beside its manifest so
 * that `tasks show` and the served task pages have their text with no checkout.
 * test/catalog/embedded.test.ts checks that every report the demo manifest names is here, byte for byte.
 */
import fixedbufIssue from "../../datasets/demo/fixedbuf-extend-overflow/sse/reports/issue.md" with { type: "text" };
import htmlescAsan from "../../datasets/demo/htmlesc-quote-overflow/sse/reports/asan.txt" with { type: "text" };
import htmlescIssue from "../../datasets/demo/htmlesc-quote-overflow/sse/reports/issue.md" with { type: "text" };
import staticfsIssue from "../../datasets/demo/staticfs-encoded-traversal/sse/reports/issue.md" with { type: "text" };
import type { ReportTexts } from "./report-texts.ts";

export function embeddedReportTexts(): ReportTexts {
  return new Map([
    ["fixedbuf-extend-overflow", new Map([["reports/issue.md", fixedbufIssue]])],
    [
      "htmlesc-quote-overflow",
      new Map([
        ["reports/issue.md", htmlescIssue],
        ["reports/asan.txt", htmlescAsan],
      ]),
    ],
    ["staticfs-encoded-traversal", new Map([["reports/issue.md", staticfsIssue]])],
  ]);
}
