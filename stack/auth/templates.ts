import type { EmailTemplate } from "../config.ts";

/**
 * Auth emails. Placeholders are Supabase's ({{ .ConfirmationURL }},
 * {{ .Token }}, {{ .TokenHash }}, {{ .SiteURL }}, {{ .RedirectTo }},
 * {{ .Email }}, {{ .NewEmail }}, {{ .Data.<key> }}) plus one of the local
 * stack's own, {{ .RedirectPath }}: the path (and query) of the redirect
 * target, URL-encoded, for the `next` parameter. The defaults link to the
 * app's /auth/confirm with the token hash, the form Supabase recommends for
 * server-rendered apps, and carry the 6-digit code as well.
 */
export type TemplateKind = "confirmation" | "magic_link" | "recovery" | "email_change" | "invite";

export interface TemplateData {
  ConfirmationURL: string;
  Token: string;
  TokenHash: string;
  SiteURL: string;
  RedirectTo: string;
  Email: string;
  NewEmail?: string;
  Data?: Record<string, unknown>;
}

const link = (type: string) =>
  `{{ .SiteURL }}/auth/confirm?token_hash={{ .TokenHash }}&type=${type}&next={{ .RedirectPath }}`;

const page = (heading: string, body: string) =>
  `<h2>${heading}</h2>\n${body}\n<p style="color:#666;font-size:12px">If you did not ask for this, you can ignore this email.</p>`;

export const DEFAULT_TEMPLATES: Record<TemplateKind, EmailTemplate> = {
  confirmation: {
    subject: "Confirm Your Signup",
    html: page(
      "Confirm your signup",
      `<p>Follow this link to confirm your email address:</p>\n<p><a href="${link("email")}">Confirm your email</a></p>\n<p>Or enter this code: <strong>{{ .Token }}</strong></p>`,
    ),
  },
  magic_link: {
    subject: "Your Magic Link",
    html: page(
      "Your sign-in link",
      `<p>Follow this link to sign in:</p>\n<p><a href="${link("email")}">Sign in</a></p>\n<p>Or enter this code: <strong>{{ .Token }}</strong></p>`,
    ),
  },
  recovery: {
    subject: "Reset Your Password",
    html: page(
      "Reset your password",
      `<p>Follow this link to choose a new password:</p>\n<p><a href="${link("recovery")}">Reset password</a></p>\n<p>Or enter this code: <strong>{{ .Token }}</strong></p>`,
    ),
  },
  email_change: {
    subject: "Confirm Email Change",
    html: page(
      "Confirm your new email",
      `<p>Follow this link to confirm the change of email from {{ .Email }} to {{ .NewEmail }}:</p>\n<p><a href="${link("email_change")}">Change email</a></p>\n<p>Or enter this code: <strong>{{ .Token }}</strong></p>`,
    ),
  },
  invite: {
    subject: "You have been invited",
    html: page(
      "You have been invited",
      `<p>You have been invited to create an account. Follow this link to accept:</p>\n<p><a href="${link("invite")}">Accept the invite</a></p>`,
    ),
  },
};

function escapeHtml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** The path, query and fragment of a URL, for a same-site `next` parameter. */
export function redirectPath(redirectTo: string): string {
  try {
    const u = new URL(redirectTo);
    return `${u.pathname}${u.search}${u.hash}` || "/";
  } catch {
    return "/";
  }
}

export function renderTemplate(template: string, data: TemplateData): string {
  return template.replace(/\{\{\s*\.([A-Za-z]+)(?:\.([A-Za-z0-9_]+))?\s*\}\}/g, (_m, name: string, key?: string) => {
    let value: unknown;
    if (name === "RedirectPath") value = encodeURIComponent(redirectPath(data.RedirectTo));
    else if (name === "Data") value = key ? data.Data?.[key] : "";
    else value = (data as unknown as Record<string, unknown>)[name];
    return escapeHtml(value === undefined || value === null ? "" : String(value));
  });
}

export function renderEmail(
  kind: TemplateKind,
  overrides: Partial<Record<TemplateKind, EmailTemplate>>,
  data: TemplateData,
) {
  const t = overrides[kind] ?? DEFAULT_TEMPLATES[kind];
  return { subject: renderTemplate(t.subject, data), html: renderTemplate(t.html, data) };
}
