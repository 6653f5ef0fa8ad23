/** The words of docs/product.md §8, in one place, so pages and tests agree. */
export const MESSAGES = {
  invalidCredentials: "Email or password is incorrect.",
  emailNotConfirmed: "Confirm your email first. We can send the link again.",
  /** followed by a "Log in instead?" link on the sign-up form */
  userAlreadyExists: "An account with this email already exists.",
  linkExpired: "This link has expired or was already used. Send a new one.",
  otherBrowser: "Open the link in the browser where you asked for it, or request a new one here.",
  tooManyRequests: (seconds: number) => `Too many attempts. Try again in ${seconds} seconds.`,
  backendDown: "Teamboard can't reach its backend right now. Your changes were not saved; try again.",
  /** the same outage on a page that only reads: nothing was changed, so nothing was lost */
  backendDownRead: "Teamboard can't reach its backend right now, so this page can't be shown. Try again in a moment.",
  unexpected: "Something went wrong.",
  notFound: "Not found",
  /** a value in the address the database can't read (a NUL character, text where an id goes) */
  unreadableAddress: "This address has something in it Teamboard can't read. Check the link and try again.",
  /** a post whose body isn't a form (JSON, plain text, none), or a form that arrived garbled */
  notAForm: "Teamboard takes forms here, and this wasn't one it could read. Go back to the form and send it again.",
  invalidCode: "That code is wrong or has expired. Check the latest email or send a new code.",
  wrongTotpCode: "That code isn't right. Enter the 6-digit code your authenticator app shows now.",
} as const;
