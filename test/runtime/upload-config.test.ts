/** The entrypoint's upload file (SSE_UPLOAD_FILE): each malformed one is one line naming it. */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { msg } from "../../src/runtime/messages.ts";
import { uploadSettings } from "../../src/runtime/config.ts";
import { readUploadConfig } from "../../src/runtime/relay/upload-config.ts";
import { tempDir } from "../helpers/cli.ts";

const scratch = tempDir("ssebench-upload-config-");
afterAll(() => scratch.cleanup());
let n = 0;

function uploadFile(text: string, mode = 0o600): string {
  const file = join(scratch.path, `upload-${++n}.json`);
  writeFileSync(file, text, { mode });
  return file;
}

const problem = (file: string) => {
  try {
    readUploadConfig(uploadSettings({ SSE_UPLOAD_FILE: file }));
    return "";
  } catch (e) {
    return (e as Error).message;
  }
};

describe("readUploadConfig", () => {
  test("no file is a local run; a good one gives the URL, token and timeout", () => {
    expect(readUploadConfig(uploadSettings({ SSE_UPLOAD_FILE: join(scratch.path, "none.json") }))).toBeUndefined();
    const token = "a".repeat(64);
    const file = uploadFile(JSON.stringify({ url: "http://ssebench-results:8700/v1/uploads/t1", token }));
    expect(readUploadConfig(uploadSettings({ SSE_UPLOAD_FILE: file }))).toMatchObject({ url: "http://ssebench-results:8700/v1/uploads/t1", token });
  });

  test("JSON that is not an object, text that is not JSON and a file others can read are refused by name", () => {
    for (const text of ["null", "[]", "7"]) {
      const file = uploadFile(text);
      expect(problem(file)).toBe(msg.uploadFile(file, "is not a JSON object"));
    }
    const notJson = uploadFile("{bad");
    expect(problem(notJson)).toBe(msg.uploadFile(notJson, "is not JSON"));
    const open = uploadFile("{}", 0o644);
    expect(problem(open)).toBe(msg.uploadFile(open, "is readable by other users (mode 0644); give it mode 0400 or 0600"));
    const noUrl = uploadFile("{}");
    expect(problem(noUrl)).toBe(msg.uploadFile(noUrl, 'has no "url" (http://…)'));
  });
});
