import type { StackConfig } from "./config.ts";
import type { Database } from "./db/types.ts";
import type { Keys } from "./keys.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { RequestLog } from "./request-log.ts";

/** What every service of the stack is built from. */
export interface ServiceContext {
  db: Database;
  keys: Keys;
  config: StackConfig;
  mailer: Mailer;
  /** the public base URL of the API, e.g. http://127.0.0.1:54321 */
  apiUrl: string;
  requests: RequestLog;
  log: (service: string, message: string) => void;
}
