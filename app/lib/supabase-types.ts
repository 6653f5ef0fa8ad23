import type { SupabaseClient as BaseClient } from "@supabase/supabase-js";
import type { Database } from "./database.types";

/**
 * The backend client typed with the generated database types
 * (`npm run stack -- gen types` writes database.types.ts from the
 * migrations): a misspelt table or column, or a wrong RPC argument, is a type error.
 */
export type SupabaseClient = BaseClient<Database>;
export type { Database };
