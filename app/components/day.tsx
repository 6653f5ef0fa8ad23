import { Fragment, type ReactNode } from "react";
import { formatDateTime, formatDay, MONTHS, twoDigits } from "~/lib/dates";
import { usePageTime } from "~/lib/use-page-time";

/**
 * A calendar date (a due date, "2026-11-26") as the app prints it, "26 Nov
 * 2026", in a <time> that never breaks across lines (app.css).
 */
export function Day({ day }: { day: string }) {
  return <time dateTime={day}>{formatDay(day)}</time>;
}

/**
 * A due date, with its time when it has one (docs/product.md §17): the
 * instant `due_at` on the viewer's clock ("9 Dec 2026, 14:30 CET"), else the day.
 */
export function DueDay({ day, at }: { day: string; at?: string | null }) {
  const { zone } = usePageTime();
  return at ? <time dateTime={at}>{formatDateTime(at, zone)}</time> : <Day day={day} />;
}

const SHORT_DATE = new RegExp(`\\b(\\d{1,2}) (${MONTHS.join("|")}) (\\d{4})\\b`, "g");

/**
 * A sentence made from words and dates ("set the due date of WEB-3 to 26 Nov
 * 2026", activity.ts) with each date in its own <time>, like every other
 * date on the page.
 */
export function WithDates({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let from = 0;
  for (const match of text.matchAll(SHORT_DATE)) {
    const [whole, date, month, year] = match;
    parts.push(text.slice(from, match.index));
    const day = `${year}-${twoDigits(MONTHS.indexOf(month) + 1)}-${twoDigits(Number(date))}`;
    parts.push(<time dateTime={day}>{whole}</time>);
    from = match.index + whole.length;
  }
  parts.push(text.slice(from));
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>{part}</Fragment>
      ))}
    </>
  );
}
