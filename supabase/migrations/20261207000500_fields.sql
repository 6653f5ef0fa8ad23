-- Fields the team defines (docs/product.md §17; docs/decisions/0035-fields-and-assignees.md).
--
-- fields         a project's own fields: a name (unique in the project, any
--                capitals), a kind, an order, shown on cards or not (at most
--                3), summed or not (numbers); number fields may have a min, a
--                max and a number of decimals. At most 30 a project.
-- field_options  a select's or multi-select's options (at most 50, each with a
--                palette colour). Values hold the option's id, so renaming an
--                option changes it everywhere at once.
-- field_values   one value of one field on one task. `value` is what clients
--                write and read (jsonb); a trigger checks it against the
--                field's kind and rules and stores it in its canonical form,
--                with typed copies (number_value, date_value, person_id,
--                option_ids) for sorting and for the foreign key to the person.
--                A refusal is 22023 (400) with DETAIL field_value_invalid and
--                the field's rules as JSON in HINT; the app words it
--                (app/lib/db-messages.ts): "Points is a number from 0 to 100."
--
-- tasks.fields (field id -> canonical value) is kept by a trigger, as
-- tasks.label_ids is: the board and the list read a task's values without a
-- join, and a value set reaches Realtime as a change of its task. Each value
-- set or cleared is recorded in the task's activity (task_updated, key
-- "field:<id>": {name, from, to}, the values as words at the time).

create type public.field_kind as enum (
  'text', 'number', 'date', 'select', 'multi_select', 'checkbox', 'link', 'person'
);

create table public.fields (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  name text not null,
  kind public.field_kind not null,
  position integer not null default 0,
  on_card boolean not null default false,
  sum boolean not null default false,
  number_min numeric,
  number_max numeric,
  number_decimals smallint,
  created_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  constraint fields_name_length check (btrim(name) <> '' and char_length(name) <= 40),
  constraint fields_number_rules check (
    (kind = 'number' or (number_min is null and number_max is null and number_decimals is null and not sum))
    and (number_min is null or number_max is null or number_min <= number_max)
    and (number_decimals is null or number_decimals between 0 and 6)
  ),
  constraint fields_position_not_negative check (position >= 0)
);

create unique index fields_name_key on public.fields (project_id, lower(btrim(name)));
create index fields_project_id_idx on public.fields (project_id, position);
create index fields_created_by_idx on public.fields (created_by);

create table public.field_options (
  id uuid primary key default gen_random_uuid(),
  field_id uuid not null references public.fields (id) on delete cascade,
  project_id uuid not null references public.projects (id) on delete cascade,
  name text not null,
  color public.palette_color not null default 'gray',
  position integer not null default 0,
  created_at timestamptz not null default now(),
  constraint field_options_name_length check (btrim(name) <> '' and char_length(name) <= 40)
);

create unique index field_options_name_key on public.field_options (field_id, lower(btrim(name)));
create index field_options_project_id_idx on public.field_options (project_id);

create table public.field_values (
  task_id uuid not null references public.tasks (id) on delete cascade,
  field_id uuid not null references public.fields (id) on delete cascade,
  project_id uuid not null references public.projects (id) on delete cascade,
  value jsonb not null,
  number_value numeric,
  date_value date,
  person_id uuid references public.profiles (id) on delete cascade,
  option_ids uuid[],
  updated_at timestamptz not null default now(),
  primary key (task_id, field_id)
);

create index field_values_field_id_idx on public.field_values (field_id);
create index field_values_project_id_idx on public.field_values (project_id);
create index field_values_person_id_idx on public.field_values (person_id) where person_id is not null;

-- field id -> canonical value; written only by field_values' trigger
alter table public.tasks add column fields jsonb not null default '{}'::jsonb;

-- Rules ------------------------------------------------------------------------------------
-- At most 30 fields a project and 3 of them on cards (the project row is locked
-- while counting, so two admins adding at once can't both make the 31st); a
-- new field goes last.
create function public.fields_check_limits() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform 1 from public.projects p where p.id = new.project_id for update;
  if tg_op = 'INSERT' then
    if (select count(*) from public.fields f where f.project_id = new.project_id) >= 30 then
      raise exception 'A project can have at most 30 fields, and 3 on cards.' using errcode = '23514', detail = 'fields_limit';
    end if;
    new.position := coalesce((select max(f.position) + 1 from public.fields f where f.project_id = new.project_id), 0);
  end if;
  if new.on_card and (tg_op = 'INSERT' or not old.on_card) and (
    select count(*) from public.fields f where f.project_id = new.project_id and f.on_card and f.id <> new.id
  ) >= 3 then
    raise exception 'A project can have at most 30 fields, and 3 on cards.' using errcode = '23514', detail = 'fields_limit';
  end if;
  return new;
end;
$$;

-- An option: only on a select or multi-select, at most 50 a field (the field
-- row is locked while counting); project_id is the field's; a new one goes last.
create function public.field_options_before_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  field public.fields;
begin
  select * into field from public.fields f where f.id = new.field_id for update;
  if not found then
    raise exception 'Field not found.' using errcode = '23503';
  end if;
  if field.kind not in ('select', 'multi_select') then
    raise exception 'Only a select or multi-select field has options.' using errcode = '23514', detail = 'field_options_kind';
  end if;
  if (select count(*) from public.field_options o where o.field_id = new.field_id) >= 50 then
    raise exception 'A field can have at most 50 options.' using errcode = '23514', detail = 'field_options_limit';
  end if;
  new.project_id := field.project_id;
  new.position := coalesce((select max(o.position) + 1 from public.field_options o where o.field_id = new.field_id), 0);
  return new;
end;
$$;

-- The refusal of a value: the field's name and rules, for the app to word.
create function public.field_value_refused(field public.fields, options text[] default null) returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  raise exception '% takes a % value.', field.name, field.kind
    using errcode = '22023', detail = 'field_value_invalid',
      hint = jsonb_build_object(
        'id', field.id, 'field', field.name, 'kind', field.kind, 'min', field.number_min, 'max', field.number_max,
        'decimals', field.number_decimals, 'options', to_jsonb(options)
      )::text;
end;
$$;

-- A value: checked against its field and stored in its canonical form
--   text          a string, 1–500 characters (trimmed)
--   number        a number (or a string that is one) within min/max, at most `decimals` decimals
--   date          "YYYY-MM-DD" between 2000-01-01 and 2100-12-31
--   select        one option: its id or its name (any capitals) -> its id
--   multi_select  options (ids or names; one alone may be given bare) -> their ids, at most 50
--   checkbox      true / false (or the strings "true", "false", "on")
--   link          an http:// or https:// address, at most 2,000 characters
--   person        the id of a member of the task's team
create function public.field_values_before_write() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  field public.fields;
  task_project uuid;
  team uuid;
  v jsonb := new.value;
  s text;
  n numeric;
  d date;
  ids uuid[];
  option_names text[];
begin
  select * into field from public.fields f where f.id = new.field_id;
  select t.project_id, p.team_id into task_project, team
  from public.tasks t join public.projects p on p.id = t.project_id where t.id = new.task_id;
  if field.id is null or task_project is null or field.project_id <> task_project then
    raise exception 'That field isn''t one of this project''s.' using errcode = '23514', detail = 'field_not_in_project';
  end if;
  new.project_id := task_project;
  new.number_value := null;
  new.date_value := null;
  new.person_id := null;
  new.option_ids := null;
  new.updated_at := now();
  s := case when jsonb_typeof(v) in ('string', 'number', 'boolean') then btrim(v #>> '{}') end;

  case field.kind
  when 'text' then
    if jsonb_typeof(v) <> 'string' or s = '' or char_length(s) > 500 then
      perform public.field_value_refused(field);
    end if;
    new.value := to_jsonb(s);
  when 'number' then
    if jsonb_typeof(v) not in ('number', 'string') or s !~ '^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)$' or length(s) > 40 then
      perform public.field_value_refused(field);
    end if;
    n := s::numeric;
    if (field.number_min is not null and n < field.number_min)
      or (field.number_max is not null and n > field.number_max)
      or (field.number_decimals is not null and n <> round(n, field.number_decimals)) then
      perform public.field_value_refused(field);
    end if;
    new.number_value := n;
    new.value := to_jsonb(n);
  when 'date' then
    if jsonb_typeof(v) <> 'string' or s !~ '^\d{4}-\d{2}-\d{2}$' then
      perform public.field_value_refused(field);
    end if;
    begin
      d := s::date;
    exception when others then
      perform public.field_value_refused(field);
    end;
    if d not between date '2000-01-01' and date '2100-12-31' then
      perform public.field_value_refused(field);
    end if;
    new.date_value := d;
    new.value := to_jsonb(to_char(d, 'YYYY-MM-DD'));
  when 'select', 'multi_select' then
    if jsonb_typeof(v) = 'string' then
      v := jsonb_build_array(v);
    end if;
    if jsonb_typeof(v) <> 'array' or jsonb_array_length(v) = 0 or jsonb_array_length(v) > 50
      or (field.kind = 'select' and jsonb_array_length(v) <> 1)
      or exists (select 1 from jsonb_array_elements(v) e where jsonb_typeof(e) <> 'string') then
      ids := null;
    else
      -- every element must name an option of this field (by id, or by name in any capitals)
      select array_agg(o.id order by o.position) into ids
      from public.field_options o
      where o.field_id = field.id
        and exists (
          select 1 from jsonb_array_elements_text(v) e
          where e = o.id::text or lower(btrim(e)) = lower(btrim(o.name))
        );
      if coalesce(cardinality(ids), 0) <> (select count(distinct lower(btrim(e))) from jsonb_array_elements_text(v) e) then
        ids := null;
      end if;
    end if;
    if ids is null then
      select array_agg(o.name order by o.position) into option_names from public.field_options o where o.field_id = field.id;
      perform public.field_value_refused(field, coalesce(option_names, '{}'));
    end if;
    new.option_ids := ids;
    new.value := case when field.kind = 'select' then to_jsonb(ids[1]) else to_jsonb(ids) end;
  when 'checkbox' then
    if jsonb_typeof(v) = 'boolean' or lower(s) in ('true', 'false', 'on') then
      new.value := to_jsonb(lower(s) in ('true', 'on'));
    else
      perform public.field_value_refused(field);
    end if;
  when 'link' then
    if jsonb_typeof(v) <> 'string' or s !~* '^https?://[^\s/?#]+[^\s]*$' or char_length(s) > 2000 then
      perform public.field_value_refused(field);
    end if;
    new.value := to_jsonb(s);
  when 'person' then
    if jsonb_typeof(v) <> 'string' or s !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      or not exists (select 1 from public.team_members m where m.team_id = team and m.user_id = s::uuid) then
      perform public.field_value_refused(field);
    end if;
    new.person_id := s::uuid;
    new.value := to_jsonb(lower(s));
  end case;
  return new;
end;
$$;

-- A value in words, for the activity (option names and people as they are now).
create function public.field_value_words(field_id uuid, value jsonb) returns text
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when $2 is null then null
    when f.kind in ('select', 'multi_select') then (
      select string_agg(o.name, ', ' order by o.position)
      from public.field_options o
      where o.field_id = f.id and (to_jsonb(o.id::text) = $2 or $2 @> to_jsonb(array[o.id::text]))
    )
    when f.kind = 'person' then (select p.display_name from public.profiles p where p.id::text = $2 #>> '{}')
    when f.kind = 'checkbox' then case when $2 = 'true'::jsonb then 'yes' else 'no' end
    else $2 #>> '{}'
  end
  from public.fields f where f.id = $1
$$;

-- A value set, changed or cleared: the task's `fields` follows (and its
-- updated_at, which Realtime subscribers of its project hear), and the change
-- is recorded in its activity. A value going with its field (the field was
-- removed) or its task is not recorded as an edit.
create function public.field_values_after_write() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  task uuid := coalesce(new.task_id, old.task_id);
  field uuid := coalesce(new.field_id, old.field_id);
  field_name text;
begin
  update public.tasks t
  set fields = case when tg_op = 'DELETE' then t.fields - field::text
                    else t.fields || jsonb_build_object(field::text, new.value) end
  where t.id = task;
  select f.name into field_name from public.fields f where f.id = field;
  if field_name is not null and (tg_op <> 'UPDATE' or new.value is distinct from old.value) then
    perform public.record_task_event(task, 'task_updated', jsonb_build_object(
      'changes', jsonb_build_object('field:' || field::text, jsonb_build_object(
        'name', field_name,
        'from', case when tg_op <> 'INSERT' then public.field_value_words(field, old.value) end,
        'to', case when tg_op <> 'DELETE' then public.field_value_words(field, new.value) end
      )),
      'mentions', '[]'::jsonb
    ));
  end if;
  return null;
end;
$$;

-- An option removed leaves every task that held it (a select's value goes, a
-- multi-select keeps its other options); values reference options by id, so a
-- renamed option needs nothing.
create function public.field_options_after_delete() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.field_values v
  where v.field_id = old.field_id and v.option_ids = array[old.id];
  update public.field_values v
  set value = to_jsonb(array_remove(v.option_ids, old.id))
  where v.field_id = old.field_id and old.id = any (v.option_ids) and cardinality(v.option_ids) > 1;
  return null;
end;
$$;

-- A person leaving the team leaves the person fields that named them.
create function public.team_members_forget_field_values() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.field_values v
  using public.projects p
  where p.id = v.project_id and p.team_id = old.team_id and v.person_id = old.user_id;
  return null;
end;
$$;

revoke execute on function
  public.fields_check_limits(),
  public.field_options_before_insert(),
  public.field_value_refused(public.fields, text[]),
  public.field_values_before_write(),
  public.field_value_words(uuid, jsonb),
  public.field_values_after_write(),
  public.field_options_after_delete(),
  public.team_members_forget_field_values()
from public, anon, authenticated;

create trigger fields_check_limits
before insert or update of on_card on public.fields
for each row execute function public.fields_check_limits();

create trigger field_options_before_insert
before insert on public.field_options
for each row execute function public.field_options_before_insert();

create trigger field_options_after_delete
after delete on public.field_options
for each row execute function public.field_options_after_delete();

create trigger field_values_before_write
before insert or update on public.field_values
for each row execute function public.field_values_before_write();

create trigger field_values_after_write
after insert or update or delete on public.field_values
for each row execute function public.field_values_after_write();

create trigger team_members_forget_field_values
after delete on public.team_members
for each row execute function public.team_members_forget_field_values();

-- Row-level security ------------------------------------------------------------------------
-- fields and options: the team sees them; admins define them in active projects.
-- values: as the task: the team sees them; members+ set them in active projects.
alter table public.fields enable row level security;
alter table public.field_options enable row level security;
alter table public.field_values enable row level security;
revoke all on table public.fields, public.field_options, public.field_values from anon, authenticated;

grant select, delete on table public.fields to authenticated;
grant insert (project_id, name, kind, on_card, sum, number_min, number_max, number_decimals)
  on table public.fields to authenticated;
grant update (name, position, on_card, sum, number_min, number_max, number_decimals) on table public.fields to authenticated;

grant select, delete on table public.field_options to authenticated;
grant insert (field_id, name, color) on table public.field_options to authenticated;
grant update (name, color, position) on table public.field_options to authenticated;

grant select, delete on table public.field_values to authenticated;
grant insert (task_id, field_id, value) on table public.field_values to authenticated;
grant update (value) on table public.field_values to authenticated;

create policy "members see their projects' fields"
on public.fields for select to authenticated
using (project_id in (select private.my_project_ids()));

create policy "admins add fields in active projects"
on public.fields for insert to authenticated
with check (private.has_project_role(project_id, 'admin', true) and created_by = (select auth.uid()));

create policy "admins edit fields in active projects"
on public.fields for update to authenticated
using (private.has_project_role(project_id, 'admin', true))
with check (private.has_project_role(project_id, 'admin', true));

create policy "admins remove fields in active projects"
on public.fields for delete to authenticated
using (private.has_project_role(project_id, 'admin', true));

create policy "members see their projects' field options"
on public.field_options for select to authenticated
using (project_id in (select private.my_project_ids()));

create policy "admins add field options in active projects"
on public.field_options for insert to authenticated
with check (exists (
  select 1 from public.fields f where f.id = field_id and private.has_project_role(f.project_id, 'admin', true)
));

create policy "admins edit field options in active projects"
on public.field_options for update to authenticated
using (private.has_project_role(project_id, 'admin', true))
with check (private.has_project_role(project_id, 'admin', true));

create policy "admins remove field options in active projects"
on public.field_options for delete to authenticated
using (private.has_project_role(project_id, 'admin', true));

create policy "members see their tasks' field values"
on public.field_values for select to authenticated
using (project_id in (select private.my_project_ids()));

create policy "members set field values in active projects"
on public.field_values for insert to authenticated
with check (private.has_task_role(task_id, 'member', true));

create policy "members change field values in active projects"
on public.field_values for update to authenticated
using (private.has_task_role(task_id, 'member', true))
with check (private.has_task_role(task_id, 'member', true));

create policy "members clear field values in active projects"
on public.field_values for delete to authenticated
using (private.has_task_role(task_id, 'member', true));

-- Two-factor at the API (20261126000100_aal2_everywhere.sql)
create policy "two-factor accounts need aal2" on public.fields
  as restrictive for all to authenticated
  using ((select private.has_required_aal())) with check ((select private.has_required_aal()));
create policy "two-factor accounts need aal2" on public.field_options
  as restrictive for all to authenticated
  using ((select private.has_required_aal())) with check ((select private.has_required_aal()));
create policy "two-factor accounts need aal2" on public.field_values
  as restrictive for all to authenticated
  using ((select private.has_required_aal())) with check ((select private.has_required_aal()));

-- set_task_field_values: several values of one task as one change; a key is a
-- field id, a value null / "" / [] clears it. Runs as the caller (row-level
-- security decides); the values' trigger checks each.
create function public.set_task_field_values(task_id uuid, "values" jsonb) returns jsonb
language plpgsql
security invoker
set search_path = ''
as $$
declare
  key text;
  val jsonb;
begin
  if jsonb_typeof($2) is distinct from 'object' then
    raise exception 'values is an object of field ids and values.' using errcode = '22023';
  end if;
  for key, val in select * from jsonb_each($2) loop
    if val is null or val = 'null'::jsonb or val = '""'::jsonb or val = '[]'::jsonb then
      delete from public.field_values v where v.task_id = $1 and v.field_id::text = key;
    else
      insert into public.field_values as v (task_id, field_id, value)
      values ($1, key::uuid, val)
      on conflict on constraint field_values_pkey do update set value = excluded.value;
    end if;
  end loop;
  return coalesce((select t.fields from public.tasks t where t.id = $1), '{}'::jsonb);
end;
$$;

revoke execute on function public.set_task_field_values(uuid, jsonb) from public, anon;
grant execute on function public.set_task_field_values(uuid, jsonb) to authenticated;

-- Definitions reach open boards live (values arrive as changes of their tasks)
alter publication supabase_realtime add table public.fields, public.field_options;
