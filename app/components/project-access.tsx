import { Form } from "@remix-run/react";
import { FormAlert, formState } from "~/components/form";
import type { ProjectPerson } from "~/lib/project-access.server";
import type { Visibility } from "~/lib/project-access.schemas";

/**
 * "Who sees this project" on its settings page (docs/product.md §20): the
 * whole team or only chosen people (plus the team's admins and owners), and
 * choosing them; a team-wide project lists the guests chosen for it (a guest
 * sees only the projects they are added to). Plain posts; the page comes back with the answer.
 */
export function ProjectAccess({
  visibility,
  always,
  members,
  candidates,
  result,
  readOnly,
}: {
  visibility: Visibility;
  always: ProjectPerson[];
  members: ProjectPerson[];
  candidates: ProjectPerson[];
  result: unknown;
  readOnly: boolean;
}) {
  const visibilityErrors = formState(result, "set-visibility").errors;
  const addErrors = formState(result, "add-project-member").errors;
  const removeErrors = formState(result, "remove-project-member").errors;
  const failure = visibilityErrors.form ?? visibilityErrors.visibility;
  return (
    <section className="card" aria-labelledby="access-title" id="access">
      <h2 id="access-title">Who sees it</h2>
      <Form method="post" className="stack-form">
        <input type="hidden" name="intent" value="set-visibility" />
        {failure ? <FormAlert autoFocus>{failure}</FormAlert> : null}
        <fieldset disabled={readOnly || undefined}>
          <legend>Visible to</legend>
          <label className="radio">
            <input type="radio" name="visibility" value="team" defaultChecked={visibility === "team"} /> the whole team
          </label>
          <label className="radio">
            <input type="radio" name="visibility" value="private" defaultChecked={visibility === "private"} /> only
            chosen people (and the team's admins and owners)
          </label>
        </fieldset>
        {readOnly ? null : (
          <button type="submit" className="button button-small">
            Save who sees it
          </button>
        )}
      </Form>
      {visibility === "private" || members.length > 0 || candidates.length > 0 ? (
        <>
          <h3>{visibility === "private" ? "Chosen people" : "Guests who see it"}</h3>
          {removeErrors.form ? <FormAlert autoFocus>{removeErrors.form}</FormAlert> : null}
          <ul className="project-members" aria-label="People who see this project">
            {(visibility === "private" ? always : []).map((p) => (
              <li key={p.userId}>
                {p.displayName} <span className="muted">({p.role}: sees every project)</span>
              </li>
            ))}
            {members.map((p) => (
              <li key={p.userId} data-project-member={p.displayName}>
                {p.displayName}{" "}
                {readOnly ? null : (
                  <Form method="post" className="inline-form">
                    <input type="hidden" name="intent" value="remove-project-member" />
                    <input type="hidden" name="userId" value={p.userId} />
                    <button type="submit" className="button button-small button-secondary">
                      Remove {p.displayName}
                    </button>
                  </Form>
                )}
              </li>
            ))}
          </ul>
          {readOnly || candidates.length === 0 ? null : (
            <Form method="post" className="inline-form">
              <input type="hidden" name="intent" value="add-project-member" />
              {addErrors.form || addErrors.userId ? (
                <FormAlert autoFocus>{addErrors.form ?? addErrors.userId}</FormAlert>
              ) : null}
              <label htmlFor="add-project-member">Add a person</label>{" "}
              <select
                id="add-project-member"
                name="userId"
                defaultValue={formState(result, "add-project-member").values.userId}
              >
                {candidates.map((p) => (
                  <option key={p.userId} value={p.userId}>
                    {p.displayName} ({p.role})
                  </option>
                ))}
              </select>{" "}
              <button type="submit" className="button button-small">
                Add
              </button>
            </Form>
          )}
        </>
      ) : null}
    </section>
  );
}
