-- Supabase Vault's SQL surface (supabase_vault 0.3), as the local stack
-- supplies it. Installed on every start, as Vault is on every hosted project;
-- `create extension supabase_vault` runs this file too. Idempotent.
--
-- Secrets are encrypted at rest with pgcrypto (AES-256 in OpenPGP's format),
-- bound to their row's id, under a key that is not in the database: the stack
-- keeps it in its data folder (vault.key) and hands it to each of its own
-- sessions as the setting stack.vault_key. A dump of the database holds only
-- ciphertext; a session the stack did not open cannot decrypt.

create schema if not exists vault;

create table if not exists vault.secrets (
  id uuid primary key default gen_random_uuid(),
  name text,
  description text not null default '',
  secret text not null,
  key_id uuid,
  nonce bytea default extensions.gen_random_bytes(16),
  created_at timestamptz not null default current_timestamp,
  updated_at timestamptz not null default current_timestamp
);
comment on table vault.secrets is 'Table with encrypted `secret` column for storing sensitive information on disk.';
create unique index if not exists secrets_name_idx on vault.secrets (name) where name is not null;

create or replace function vault._key() returns text
language plpgsql stable set search_path = '' as $$
declare
  key text := current_setting('stack.vault_key', true);
begin
  if coalesce(key, '') = '' then
    raise exception using
      errcode = '55000',
      message = 'the Vault key is not loaded in this session',
      hint = 'Vault secrets are encrypted with the local stack''s key (vault.key in its data folder): read them through the stack.';
  end if;
  return key;
end
$$;

create or replace function vault._encrypt(secret text, id uuid) returns text
language sql volatile set search_path = '' as $$
  select replace(encode(extensions.pgp_sym_encrypt(
    id::text || ':' || secret, vault._key(), 'cipher-algo=aes256, s2k-mode=1, s2k-digest-algo=sha256'
  ), 'base64'), E'\n', '')
$$;

create or replace function vault._decrypt(secret text, id uuid) returns text
language plpgsql stable security definer set search_path = '' as $$
declare
  plain text;
begin
  begin
    plain := extensions.pgp_sym_decrypt(decode(secret, 'base64'), vault._key());
  exception when sqlstate '39000' or sqlstate '22023' or sqlstate '22P02' then
    raise exception using
      errcode = '22023',
      message = format('Vault could not decrypt secret %s', id),
      hint = 'It was encrypted with another key (another data folder''s vault.key).';
  end;
  if left(plain, length(id::text) + 1) <> id::text || ':' then
    raise exception using errcode = '22023', message = format('Vault secret %s does not belong to this row', id);
  end if;
  return substr(plain, length(id::text) + 2);
end
$$;

create or replace view vault.decrypted_secrets as
select
  s.id,
  s.name,
  s.description,
  s.secret,
  vault._decrypt(s.secret, s.id) as decrypted_secret,
  s.key_id,
  s.nonce,
  s.created_at,
  s.updated_at
from vault.secrets s;

create or replace function vault.create_secret(
  new_secret text,
  new_name text = null,
  new_description text = '',
  -- unused, as in Vault 0.3
  new_key_id uuid = null
) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  new_id uuid := gen_random_uuid();
begin
  insert into vault.secrets (id, secret, name, description)
  values (new_id, vault._encrypt(new_secret, new_id), new_name, new_description);
  return new_id;
end
$$;

create or replace function vault.update_secret(
  secret_id uuid,
  new_secret text = null,
  new_name text = null,
  new_description text = null,
  -- unused, as in Vault 0.3
  new_key_id uuid = null
) returns void
language plpgsql security definer set search_path = '' as $$
begin
  update vault.secrets s set
    secret = case when new_secret is null then s.secret else vault._encrypt(new_secret, s.id) end,
    name = coalesce(new_name, s.name),
    description = coalesce(new_description, s.description),
    updated_at = now()
  where s.id = secret_id;
end
$$;

-- Vault's privileges and a hosted project's grants: the owner and
-- service_role may read and delete secrets and create or update them through
-- the functions; anon and authenticated may not touch the schema at all.
revoke all on schema vault from public;
revoke all on all tables in schema vault from public, anon, authenticated;
revoke all on function vault._key(), vault._encrypt(text, uuid), vault._decrypt(text, uuid),
  vault.create_secret(text, text, text, uuid), vault.update_secret(uuid, text, text, text, uuid) from public;
grant usage on schema vault to service_role;
grant select, delete on vault.secrets, vault.decrypted_secrets to service_role;
grant execute on function vault.create_secret(text, text, text, uuid), vault.update_secret(uuid, text, text, text, uuid),
  vault._decrypt(text, uuid) to service_role;
