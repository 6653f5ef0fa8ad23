-- Recurrence rules and their next dates (PRODUCT.md §12; the rules are
-- written out in docs/decisions/0029-time.md). Functions only, so that the
-- unit test of the dates can load this file into a bare database.
--
-- A task's `recurrence` is a subset of RFC 5545's RRULE, always in one
-- canonical spelling (the app writes it; the database checks it):
--   FREQ=DAILY;INTERVAL=n
--   FREQ=WEEKLY;INTERVAL=n;BYDAY=MO,WE,FR          (one to seven days, Monday first)
--   FREQ=MONTHLY;INTERVAL=n;BYMONTHDAY=d           (d 1–31, or -1 for the last day)
--   FREQ=YEARLY;INTERVAL=n;BYMONTH=m;BYMONTHDAY=d  (the due date's month and day)
-- with n from 1 to 99.

create function public.is_recurrence(rule text) returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(
    $1 ~ '^FREQ=DAILY;INTERVAL=([1-9]|[1-9][0-9])$'
    or ($1 ~ '^FREQ=WEEKLY;INTERVAL=([1-9]|[1-9][0-9]);BYDAY=(MO|TU|WE|TH|FR|SA|SU)(,(MO|TU|WE|TH|FR|SA|SU)){0,6}$'
        -- each day once, Monday first
        and (select string_agg(x, ',' order by array_position(array['MO','TU','WE','TH','FR','SA','SU'], x))
             from (select distinct unnest(string_to_array(split_part($1, 'BYDAY=', 2), ',')) as x) days)
            = split_part($1, 'BYDAY=', 2))
    or $1 ~ '^FREQ=MONTHLY;INTERVAL=([1-9]|[1-9][0-9]);BYMONTHDAY=(-1|[1-9]|[12][0-9]|3[01])$'
    or ($1 ~ '^FREQ=YEARLY;INTERVAL=([1-9]|[1-9][0-9]);BYMONTH=([1-9]|1[0-2]);BYMONTHDAY=([1-9]|[12][0-9]|3[01])$'
        -- a day that month can have (29 February can: it falls on the 28th in other years)
        and split_part($1, 'BYMONTHDAY=', 2)::int <= (array[31,29,31,30,31,30,31,31,30,31,30,31])[split_part(split_part($1, 'BYMONTH=', 2), ';', 1)::int]),
    false)
$$;

-- Day `d` of the month that starts on `first`, or that month's last day when
-- it has fewer days or d is -1 (the 31st falls on the 30th, the 28th or the 29th).
create function public.day_of_month(first date, d int) returns date
language sql
immutable
set search_path = ''
as $$
  select case
    when $2 = -1 then ($1 + interval '1 month' - interval '1 day')::date
    else least($1 + ($2 - 1), ($1 + interval '1 month' - interval '1 day')::date)
  end
$$;

-- The first date of the series after `after` (the completed task's due date;
-- null for a rule that isn't one). Plain dates, so no time zone and no
-- summer-time change can move them. The parts sit in fixed places of the
-- canonical rule: FREQ, INTERVAL, then BYDAY | BYMONTHDAY | BYMONTH, BYMONTHDAY.
create function public.next_due_date(rule text, after date) returns date
language sql
immutable
set search_path = ''
as $$
  select case r.freq
    when 'DAILY' then $2 + r.n
    -- a later day of the same week (Monday first), else the first day of the week n weeks on
    when 'WEEKLY' then (
      select coalesce(min($2 + (d - r.dow)) filter (where d > r.dow), $2 - r.dow + 7 * r.n + min(d))
      from (select array_position(array['MO','TU','WE','TH','FR','SA','SU'], x) - 1 as d
            from unnest(string_to_array(r.a, ',')) x) days)
    -- the day in the same month if it is still to come, else in the month n months on
    when 'MONTHLY' then (
      select case when c > $2 then c
                  else public.day_of_month((r.month_start + make_interval(months => r.n))::date, r.a::int) end
      from (select public.day_of_month(r.month_start, r.a::int) as c) x)
    -- the date in the same year if it is still to come, else in the year n years on
    when 'YEARLY' then (
      select case when c > $2 then c
                  else public.day_of_month((y.start + make_interval(years => r.n))::date, r.b::int) end
      from (select make_date(extract(year from $2)::int, r.a::int, 1) as start) y,
           lateral (select public.day_of_month(y.start, r.b::int) as c) x)
  end
  from (
    select split_part(split_part($1, ';', 1), '=', 2) as freq,
           split_part(split_part($1, ';', 2), '=', 2)::int as n,
           split_part(split_part($1, ';', 3), '=', 2) as a,
           split_part(split_part($1, ';', 4), '=', 2) as b,
           extract(isodow from $2)::int - 1 as dow,
           date_trunc('month', $2)::date as month_start
  ) r
  where public.is_recurrence($1) and $2 is not null
$$;

-- Pure functions of their arguments: every role may call them (PostgreSQL grants
-- execute to public on a new function, and the task triggers run as the person saving).
