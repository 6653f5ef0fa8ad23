import { Field, SelectField } from "~/components/form";
import { WEEKDAY_NAMES } from "~/lib/dates";
import { fieldsFromRule, WEEKDAYS } from "~/lib/recurrence";
import type { FormValues } from "~/lib/schemas";

const REPEAT_OPTIONS = [
  { value: "never", label: "Doesn't repeat" },
  { value: "daily", label: "Every N days" },
  { value: "weekly", label: "Every N weeks, on the days ticked" },
  { value: "monthly", label: "Every N months" },
  { value: "yearly", label: "Every N years, on the due date" },
];

const MONTHLY_OPTIONS = [
  { value: "day", label: "On the due date's day of the month" },
  { value: "last", label: "On the last day of the month" },
];

/**
 * Repeating (PRODUCT.md §12), in the task's form: how often, every N, the
 * weekdays (weekly; none ticked means the due date's weekday) and the month's
 * day or last day (monthly). All of it shows without JavaScript; the server
 * makes the rule from it and the due date (lib/tasks.schemas.ts).
 */
export function RepeatFields({
  rule,
  values,
  errors,
}: {
  rule: string | null | undefined;
  values: FormValues;
  errors: Record<string, string | undefined>;
}) {
  const saved = fieldsFromRule(rule);
  // a form sent back shows what was sent: an unticked box isn't sent at all
  const sentBack = values.repeat !== undefined;
  return (
    <fieldset className="repeat-fields">
      <legend>Repeat</legend>
      <div className="field-row">
        <SelectField
          name="repeat"
          label="Repeats"
          hint="Needs a due date. Completing the task makes the next one."
          options={REPEAT_OPTIONS}
          value={values.repeat ?? saved.repeat}
          error={errors.repeat}
        />
        <Field
          name="every"
          label="N (every N)"
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
        {WEEKDAYS.map((day, i) => (
          <label key={day} className="checkbox-label">
            <input
              type="checkbox"
              name={`day_${day}`}
              defaultChecked={sentBack ? Boolean(values[`day_${day}`]) : saved.days.includes(day)}
            />{" "}
            {WEEKDAY_NAMES[i]}
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
