-- Every minute, the database calls the send-notifications function (PRODUCT.md
-- §10: notification emails go out within two minutes, started by the
-- backend's scheduler, never by the app server). Exactly the pattern of
-- Supabase's "Scheduling Edge Functions" guide: Supabase Cron (pg_cron) runs
-- the job, pg_net posts to the function, and the project's URL and service
-- role key are read from Vault when the job runs, so nothing secret is in
-- this file. The Vault secrets `project_url` and `service_role_key` are put
-- there once by a person on a hosted project (docs/deploy.md) and by the local
-- stack itself on every start. docs/decisions/0026-scheduler.md.
create extension if not exists pg_cron with schema pg_catalog;
create extension if not exists pg_net with schema extensions;

select cron.schedule(
  'send-notifications',
  '* * * * *',
  $$
  select net.http_post(
    url := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url') || '/functions/v1/send-notifications',
    headers := jsonb_build_object(
      'Content-Type', 'application/json',
      'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key')
    ),
    body := jsonb_build_object('scheduled_at', now()),
    timeout_milliseconds := 10000
  ) as request_id;
  $$
);
