import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { env } from "./env.server";

export interface Flash {
  kind: "success" | "info";
  message: string;
}

const storage = createCookieSessionStorage<Record<string, never>, { flash: Flash }>({
  cookie: {
    name: "tb_flash",
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    // Like the auth cookies (@supabase/ssr's defaults) not Secure-only, so http://127.0.0.1 works in
    // dev and tests; it carries only a signed one-time message.
    secure: false,
    secrets: [env.SESSION_SECRET],
  },
});

/** Adds a one-time message to `headers` (the request's shared headers), shown on the next page. */
export async function setFlash(request: Request, headers: Headers, flash: Flash) {
  const session = await storage.getSession(request.headers.get("Cookie"));
  session.flash("flash", flash);
  headers.append("Set-Cookie", await storage.commitSession(session));
}

/** After a successful form: the message for the next page, and the way there. */
export async function redirectWithSuccess(request: Request, headers: Headers, message: string, to: string) {
  await setFlash(request, headers, { kind: "success", message });
  return redirect(to, { headers });
}

/** Reads the message once; the cookie that clears it goes into `headers`. */
export async function takeFlash(request: Request, headers: Headers): Promise<Flash | null> {
  const cookie = request.headers.get("Cookie");
  if (!cookie?.includes("tb_flash=")) return null;
  const session = await storage.getSession(cookie);
  const flash = session.get("flash") ?? null;
  headers.append("Set-Cookie", await storage.commitSession(session));
  return flash;
}
