import crypto from "node:crypto";
import bcrypt from "bcryptjs";
import { badRequest, weakPassword } from "./errors.ts";

export const MAX_PASSWORD_BYTES = 72;

/** The password a user made without one gets (by a magic link or code; never told to anyone). */
export function randomPassword() {
  return `${crypto.randomBytes(24).toString("base64url")}aA1`;
}

const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";
const SYMBOLS = "!@#$%^&*()_+-=[]{};'\\:\"|<>?,./`~";

/** The character sets a password must draw from, as GoTrue names the options. */
export function requiredCharacterSets(option: string): string[] {
  switch (option) {
    case "letters_digits":
      return [LOWER + UPPER, DIGITS];
    case "lower_upper_letters_digits":
      return [LOWER, UPPER, DIGITS];
    case "lower_upper_letters_digits_symbols":
      return [LOWER, UPPER, DIGITS, SYMBOLS];
    default:
      return [];
  }
}

export interface PasswordPolicy {
  passwordMinLength: number;
  passwordRequiredCharacters: string;
}

/** Throws 422 weak_password (with reasons) or 400 for an over-long password. */
export function checkPasswordStrength(password: string, policy: PasswordPolicy): void {
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) {
    throw badRequest("validation_failed", `Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`);
  }
  const reasons: string[] = [];
  const messages: string[] = [];
  if ([...password].length < policy.passwordMinLength) {
    reasons.push("length");
    messages.push(`Password should be at least ${policy.passwordMinLength} characters.`);
  }
  const sets = requiredCharacterSets(policy.passwordRequiredCharacters);
  if (sets.some((set) => ![...password].some((ch) => set.includes(ch)))) {
    reasons.push("characters");
    messages.push(`Password should contain at least one character of each: ${sets.join(", ")}.`);
  }
  if (reasons.length > 0) throw weakPassword(messages.join(" "), reasons);
}

export function hashPassword(password: string, cost: number): Promise<string> {
  return bcrypt.hash(password, cost);
}

export async function comparePassword(password: string, hash: string | null): Promise<boolean> {
  if (!hash) return false;
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    return false;
  }
}
