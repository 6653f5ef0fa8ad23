import { createCookieSessionStorage } from "@remix-run/node";
import { env } from "./env.server";
import { redirect } from "./http.server";
import { requestScope } from "./request-scope.server";

export interface Flash {
  kind: "success" | "info";
  message: string;
  /** a link after the message ("Open WEB-34"): where the change led */
  link?: { href: string; text: string };
}

const COOKIE = "tb_flash";

const storage = createCookieSessionStorage<Record<string, never>, { flash: Flash }>({
  cookie: {
    name: COOKIE,
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    // Like the auth cookies (@supabase/ssr's defaults) not Secure-only, so http://127.0.0.1 works in
    // dev and tests; it carries only a signed one-time message.
    secure: false,
    secrets: [env.SESSION_SECRET],
  },
});

/** A one-time message, shown on the next page (its cookie goes out with this request's answer). */
export async function setFlash(flash: Flash) {
  const scope = requestScope();
  const session = await storage.getSession(scope.cookie);
  session.flash("flash", flash);
  scope.setCookie(COOKIE, await storage.commitSession(session));
}

/** After a successful form: the message for the next page, and the way there. */
export async function redirectWithSuccess(message: string, to: string, link?: Flash["link"]) {
  await setFlash({ kind: "success", message, ...(link ? { link } : {}) });
  return redirect(to);
}

/** Reads the message once; the cookie that clears it goes out with this request's answer. */
export async function takeFlash(): Promise<Flash | null> {
  const scope = requestScope();
  if (!scope.cookie.includes(`${COOKIE}=`)) return null;
  const session = await storage.getSession(scope.cookie);
  const flash = session.get("flash") ?? null;
  scope.setCookie(COOKIE, await storage.commitSession(session));
  return flash;
}
