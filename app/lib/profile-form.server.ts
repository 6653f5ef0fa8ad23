import type { ActionFunctionArgs } from "@remix-run/node";
import { isBackendUnavailable } from "./auth-errors.server";
import { requireUser } from "./auth.server";
import { PROFILE_FORM_MAX_BODY_BYTES } from "./body-limits.server";
import { setFlash } from "./flash.server";
import { formFailure } from "./forms.server";
import { backendError, backendUnavailableResult, redirect } from "./http.server";
import { isUsernameTaken, removeAvatar, saveProfile } from "./profiles.server";
import { parseForm, ProfileSchema } from "./schemas";
import { chosenFiles } from "./storage.server";
import { requestClient } from "./supabase.server";
import { isTheme, THEME_LABELS } from "./theme";
import { saveTheme } from "./theme.server";
import { canonicalTimeZone, TIME_ZONE_MESSAGE } from "./time-zones.server";

/**
 * The profile page's posts (save the profile with its time zone, remove the avatar, or the theme). It is the /account
 * layout's action, not the profile (index) page's: a form posting to an index
 * route goes to `/account?index`, which the address bar then shows after an
 * answer that is not a redirect (a rejected avatar, for one). The profile
 * page reads the answer from the layout's outlet context.
 */
export async function submitProfile({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  const user = await requireUser(request);
  // a multipart body larger than this is not read (a 2 MB avatar plus a form is far below it)
  if (Number(request.headers.get("content-length") ?? 0) > PROFILE_FORM_MAX_BODY_BYTES) {
    return formFailure({ errors: { avatar: "The avatar is larger than 2 MB." }, values: {} });
  }
  const form = await request.formData();
  if (form.get("intent") === "theme") {
    const theme = form.get("theme");
    const values = { theme: String(theme ?? "") };
    if (!isTheme(theme))
      return formFailure({ intent: "theme", errors: { theme: "Choose light, dark or as the system." }, values });
    const { error } = await saveTheme(supabase, user.id, theme);
    if (error) {
      if (isBackendUnavailable(error)) return backendUnavailableResult(values);
      throw backendError(error);
    }
    await setFlash({ kind: "success", message: `Your theme is saved: ${THEME_LABELS[theme].toLowerCase()}.` });
    throw redirect("/account");
  }
  if (form.get("intent") === "remove-avatar") {
    const removed = await removeAvatar(supabase, user.id);
    if (removed.error) {
      if (isBackendUnavailable(removed.error)) return backendUnavailableResult({}, "remove-avatar");
      throw backendError(removed.error);
    }
    await supabase.auth.refreshSession();
    await setFlash({ kind: "success", message: "Your avatar is removed." });
    throw redirect("/account");
  }
  const result = parseForm(ProfileSchema, form);
  if (!result.success) return formFailure(result);
  const timeZone = result.data.timeZone === undefined ? undefined : canonicalTimeZone(result.data.timeZone);
  if (timeZone === null) return formFailure({ errors: { timeZone: TIME_ZONE_MESSAGE }, values: result.values });
  const saved = await saveProfile(supabase, user.id, {
    displayName: result.data.displayName,
    username: result.data.username,
    avatar: chosenFiles(form, "avatar")[0] ?? null,
    timeZone,
  });
  if (saved.field) return formFailure({ errors: { [saved.field]: saved.message }, values: result.values });
  if (saved.error) {
    if (isUsernameTaken(saved.error))
      return formFailure({ errors: { username: "That username is taken." }, values: result.values });
    if (isBackendUnavailable(saved.error)) return backendUnavailableResult(result.values);
    throw backendError(saved.error);
  }
  // The header shows the name and avatar from the access token's claims; a refreshed token carries the new ones.
  await supabase.auth.refreshSession();
  await setFlash({ kind: "success", message: "Your profile is saved." });
  throw redirect("/account");
}
