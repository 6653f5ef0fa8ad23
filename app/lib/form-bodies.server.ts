import { MESSAGES } from "./messages";

/**
 * Every action reads its body as a form (`request.formData()`), which throws
 * on a body of any other type — JSON, plain text, none, multipart without
 * its boundary — and the throw was a 500 (issue 35 L3: `/api/preview` with a
 * JSON body). The servers refuse such a write before Remix runs, in the same
 * place as a cross-site post (request-scope.server): 415 with words. The app
 * posts nothing but forms (its scripts send FormData too). A form of the
 * right type whose bytes are garbled is caught where it is read (http.server's
 * `keepingTheForm`, the resource routes).
 */
const FORM_TYPE = /^\s*(application\/x-www-form-urlencoded\s*(;|$)|multipart\/form-data\s*;.*\bboundary=)/i;
const BODILESS = new Set(["GET", "HEAD", "OPTIONS"]);

export function notAFormRefusal(
  method: string,
  contentType: string | null | undefined,
): { status: 415; headers: Record<string, string>; body: string } | null {
  if (BODILESS.has(method.toUpperCase()) || FORM_TYPE.test(contentType ?? "")) return null;
  return {
    status: 415,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    body: MESSAGES.notAForm,
  };
}

/** Whether a request's body can't be read as a form (reads a copy; for telling a garbled body from a bug). */
export async function isUnreadableForm(copy: Request): Promise<boolean> {
  try {
    await copy.formData();
    return false;
  } catch {
    return true;
  }
}
