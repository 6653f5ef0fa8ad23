import { describe, expect, it } from "vitest";
import { canonicalName, listUnsubscribe, parseHeaders } from "./headers.ts";

describe("a message's headers, as Mailpit serves them", () => {
  it("writes names as Go does and keeps every value, continuation lines unfolded, in name order", () => {
    const raw = Buffer.from(
      "subject: A long\r\n subject line\r\nMESSAGE-ID: <x@y>\r\nReceived: one\r\nReceived: two\r\nX-odd name: kept\r\n\r\nBody: not a header\r\n",
    );
    expect(parseHeaders(raw)).toEqual({
      "Message-Id": ["<x@y>"],
      Received: ["one", "two"],
      Subject: ["A long subject line"],
      "X-odd name": ["kept"],
    });
    expect(canonicalName("list-unsubscribe-POST")).toBe("List-Unsubscribe-Post");
  });

  it("reads the unsubscribe links and says what is wrong with them", () => {
    expect(listUnsubscribe({})).toEqual({ Header: "", Links: [], Errors: "", HeaderPost: "" });
    expect(listUnsubscribe({ "List-Unsubscribe": ["<https://a.test/u> (the link), <mailto:u@a.test>"] })).toEqual({
      Header: "<https://a.test/u> (the link), <mailto:u@a.test>",
      Links: ["https://a.test/u", "mailto:u@a.test"],
      Errors: "",
      HeaderPost: "",
    });
    expect(listUnsubscribe({ "List-Unsubscribe": ["https://a.test/u"] }).Errors).toContain(
      "no valid unsubscribe links",
    );
    expect(listUnsubscribe({ "List-Unsubscribe": ["<ftp://a.test/u>"] }).Errors).toContain("neither a mailto:");
  });
});
