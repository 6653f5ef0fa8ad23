import { Field, SelectField } from "~/components/form";
import { DAY_NAMES, WEEKDAYS, type RepeatFields as Saved } from "~/lib/recurrence";
import type { FormValues } from "~/lib/schemas";

const REPEAT_OPTIONS = [
  { value: "never", label: "Doesn't repeat" },
  { value: "daily", label: "Daily" },
  { value: "weekly", label: "Weekly" },
  { value: "monthly", label: "Monthly" },
  { value: "yearly", label: "Yearly" },
];

const NO_REPEAT: Saved = { repeat: "never", every: 1, days: [], monthly: "day" };

const MONTHLY_OPTIONS = [
  { value: "day", label: "The due date's day" },
  { value: "last", label: "The last day" },
];

/**
 * Repeating (docs/product.md §12), in the task's form: how often, every N, the
 * weekdays (weekly; none ticked means the due date's weekday) and the month's
 * day or last day (monthly). All of it shows without JavaScript; the server
 * makes the rule from it and the due date (taskRecurrence in lib/recurrence.server.ts).
 */
export function RepeatFields({
  saved = NO_REPEAT,
  values,
  errors,
}: {
  /** the task's rule as the form's fields (fieldsFromRule, worked out by the loader) */
  saved?: Saved;
  values: FormValues;
  errors: Record<string, string | undefined>;
}) {
  // a form sent back shows what was sent: an unticked box isn't sent at all
  const sentBack = values.repeat !== undefined;
  return (
    <fieldset className="repeat-fields">
      <legend>Repeat</legend>
      <div className="field-row">
        <SelectField
          name="repeat"
          label="Repeats"
          hint="Needs a due date."
          options={REPEAT_OPTIONS}
          value={values.repeat ?? saved.repeat}
          error={errors.repeat}
        />
        <Field
          name="every"
          label="Every (1–99)"
          type="number"
          min="1"
          max="99"
          inputMode="numeric"
          value={values.every ?? String(saved.every)}
          error={errors.every}
        />
      </div>
      <fieldset className="repeat-days">
        <legend>On (weekly)</legend>
        {WEEKDAYS.map((day) => (
          <label key={day} className="checkbox-label">
            <input
              type="checkbox"
              name={`day_${day}`}
              defaultChecked={sentBack ? Boolean(values[`day_${day}`]) : saved.days.includes(day)}
            />{" "}
            {DAY_NAMES[day]}
          </label>
        ))}
      </fieldset>
      <SelectField
        name="monthly"
        label="On (monthly)"
        options={MONTHLY_OPTIONS}
        value={values.monthly ?? saved.monthly}
        error={errors.monthly}
      />
    </fieldset>
  );
}
