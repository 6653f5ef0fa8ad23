import { ATTACHMENT_MAX_BYTES } from "./attachments";
import { AVATAR_SIZE_MESSAGE } from "./avatars";

/**
 * How large a request body may be, per route (issue 35 M1). The production
 * server (server.mjs) answers 413 before admission to any request whose
 * declared length (Content-Length) or streamed length goes over its route's
 * limit, without reading it into memory, so only the routes that take files
 * can be made to hold megabytes, and only up to what they need:
 *
 *   /teams/…/tasks/<n>/attachments   64 MiB  the no-JavaScript attach form: several files of up to
 *                                            10 MB, at most 60 MB together (the app refuses more in words)
 *   /account                         25 MiB  the profile form with an avatar (2 MB; a phone's photo of up
 *                                            to 25 MB is read and refused in words)
 *   /api/attachments                 11 MiB  one file of up to 10 MB from the panel's script
 *   everything else                   1 MiB  an ordinary form: the largest is a task's 10,000-character
 *                                            description, at most 120 KB once URL-encoded
 *
 * The routes that take files check the same numbers themselves (with their
 * in-form messages below them), and the dev server refuses a declared length
 * over them too (vite.config.ts). A single fetch request (`<path>.data`) has
 * its page's limit.
 */
export const MiB = 1024 * 1024;
export const FORM_MAX_BODY_BYTES = 1 * MiB;
export const ATTACH_FORM_MAX_BODY_BYTES = 64 * MiB;
export const ATTACH_FORM_MAX_FILES_BYTES = 60 * MiB;
export const PROFILE_FORM_MAX_BODY_BYTES = 25 * MiB;
export const ATTACH_API_MAX_BODY_BYTES = ATTACHMENT_MAX_BYTES + 1 * MiB;

export const ATTACH_FORM_TOO_LARGE =
  "These files are more than 60 MB together: attach them a few at a time (up to 10 MB each).";
export const ATTACH_API_TOO_LARGE = "The file is larger than 10 MB.";
export const FORM_TOO_LARGE = "That form is larger than Teamboard takes (1 MB). Go back and make it shorter.";

export interface BodyLimit {
  bytes: number;
  /** what the person reads in the 413 */
  message: string;
  /** answered as the route answers: JSON `{ ok, message }` for the panel's script, else a page */
  json: boolean;
}

const ATTACH_FORM = /^\/+teams\/+[^/]+\/+projects\/+[^/]+\/+tasks\/+[^/]+\/+attachments\/*$/i;

/** The limit for a request's path (Express's req.path: no query). */
export function bodyLimitFor(pathname: string): BodyLimit {
  const path = pathname.replace(/\.data$/i, "");
  if (/^\/+api\/+attachments\/*$/i.test(path))
    return { bytes: ATTACH_API_MAX_BODY_BYTES, message: ATTACH_API_TOO_LARGE, json: true };
  if (ATTACH_FORM.test(path)) return { bytes: ATTACH_FORM_MAX_BODY_BYTES, message: ATTACH_FORM_TOO_LARGE, json: false };
  if (/^\/+account\/*$/i.test(path))
    return { bytes: PROFILE_FORM_MAX_BODY_BYTES, message: AVATAR_SIZE_MESSAGE, json: false };
  return { bytes: FORM_MAX_BODY_BYTES, message: FORM_TOO_LARGE, json: false };
}

/** The 413 page (no app, no script: the server sends it before admission). */
export function tooLargePage(message: string): string {
  const escaped = message.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/'/g, "&#39;");
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Too large</title></head>
<body><main><p>Too large</p><h1>${escaped}</h1><p>Nothing was saved: go back to the form.</p></main></body>
</html>
`;
}
