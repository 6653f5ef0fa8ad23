import { z } from "zod";

/**
 * The server's environment, validated once when the server module loads.
 * Only `publicEnv` ever reaches the browser.
 */
const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  SUPABASE_URL: z
    .string({ required_error: "SUPABASE_URL is missing: the backend's URL, e.g. http://127.0.0.1:54321" })
    .url("SUPABASE_URL must be a URL, e.g. http://127.0.0.1:54321"),
  SUPABASE_ANON_KEY: z
    .string({
      required_error:
        "SUPABASE_ANON_KEY is missing: the backend's public (anon) key; `npm run stack -- status` prints it",
    })
    .min(20, "SUPABASE_ANON_KEY looks too short to be a key"),
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(20).optional(),
  // whether the backend asks both the current and the new address to confirm an email change
  // (Supabase's "Secure email change", on by default); only the wording of /account/email depends on it
  SUPABASE_SECURE_EMAIL_CHANGE: z.enum(["true", "false"]).default("true"),
  SESSION_SECRET: z
    .string({ required_error: "SESSION_SECRET is missing: any long random string signs the flash cookie" })
    .min(16, "SESSION_SECRET must be at least 16 characters"),
});

export type Env = z.infer<typeof EnvSchema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).map(([k, v]) => [k, v === "" ? undefined : v]));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  - ${issue.message}`);
    throw new Error(`Teamboard cannot start: its environment is incomplete.\n${lines.join("\n")}\nSee .env.example.`);
  }
  return result.data;
}

export const env = parseEnv(process.env);

/** The whitelisted subset the browser may see. */
export const publicEnv = {
  SUPABASE_URL: env.SUPABASE_URL,
  SUPABASE_ANON_KEY: env.SUPABASE_ANON_KEY,
} as const;

export type PublicEnv = typeof publicEnv;
