import { Migration } from '@mikro-orm/migrations';

/**
 * What the database itself refuses (every role, the service's own included): any change to a stored v2
 * decision or a source-profile revision, and any change to a treatment release once it left `candidate`.
 * Every insert or update of a source profile writes its next revision (so no code path can skip one).
 */
const GOVERNED = [
  `create function "calculation".refuse_any_change() returns trigger language plpgsql as $$
    begin
      raise exception '%.% is append-only: % is refused', tg_table_schema, tg_table_name, tg_op using errcode = 'restrict_violation';
    end $$;`,
  `create function "calculation".refuse_sealed_release_change() returns trigger language plpgsql as $$
    begin
      if old.status <> 'candidate' then
        raise exception '%.% row % is sealed (%): % is refused', tg_table_schema, tg_table_name, old.id, old.status, tg_op using errcode = 'restrict_violation';
      end if;
      return case when tg_op = 'DELETE' then old else new end;
    end $$;`,
  `create function "calculation".record_source_profile_revision() returns trigger language plpgsql as $$
    declare snap jsonb;
    begin
      snap := jsonb_build_object('id', new.id::text, 'source_key', new.source_key, 'display_name', new.display_name, 'channel_type', new.channel_type,
        'platform', new.platform, 'default_country', new.default_country, 'default_currency', new.default_currency,
        'supplier_establishment_country', new.supplier_establishment_country, 'dispatch_country', new.dispatch_country,
        'marketplace_deemed_supplier', new.marketplace_deemed_supplier, 'active', new.active);
      insert into "calculation"."source_profile_revision" (profile_id, account_id, revision, snapshot, digest, recorded_at)
        select new.id, new.account_id, coalesce(max(revision), 0) + 1, snap, 'sha256:' || encode(sha256(convert_to(snap::text, 'UTF8')), 'hex'), new.updated_at
        from "calculation"."source_profile_revision" where profile_id = new.id;
      return new;
    end $$;`,
  `create trigger source_profile_revision_written after insert or update on "calculation"."source_profile" for each row execute function "calculation".record_source_profile_revision();`,
  `insert into "calculation"."source_profile_revision" (profile_id, account_id, revision, snapshot, digest, recorded_at)
     select id, account_id, 1, s.snap, 'sha256:' || encode(sha256(convert_to(s.snap::text, 'UTF8')), 'hex'), updated_at
     from "calculation"."source_profile", lateral (select jsonb_build_object('id', id::text, 'source_key', source_key, 'display_name', display_name, 'channel_type', channel_type,
        'platform', platform, 'default_country', default_country, 'default_currency', default_currency,
        'supplier_establishment_country', supplier_establishment_country, 'dispatch_country', dispatch_country,
        'marketplace_deemed_supplier', marketplace_deemed_supplier, 'active', active) as snap) s;`,
  `create trigger treatment_release_sealed before update or delete on "calculation"."treatment_release" for each row execute function "calculation".refuse_sealed_release_change();`,
  ...['governed_decision', 'source_profile_revision'].map((t) => `create trigger ${t}_append_only before update or delete on "calculation"."${t}" for each row execute function "calculation".refuse_any_change();`),
  ...['governed_decision', 'source_profile_revision', 'treatment_release'].map((t) => `create trigger ${t}_no_truncate before truncate on "calculation"."${t}" for each statement execute function "calculation".refuse_any_change();`),
];

export class Migration20261124042050 extends Migration {

  override name = 'Migration20261124042050';

  override up(): void | Promise<void> {
    this.addSql(`create table "calculation"."governed_decision" ("seq" bigserial primary key, "id" uuid not null, "account_id" bigint not null, "api_key_id" bigint not null, "idempotency_key" varchar(255) not null, "request_digest" varchar(80) not null, "canonical_request" jsonb not null, "status" varchar(20) not null, "http_status" int not null, "error_code" varchar(60) not null, "detail" text not null, "decision" jsonb not null, "supersedes_decision_id" uuid null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "calculation"."governed_decision" add constraint "governed_decision_id_unique" unique ("id");`);
    this.addSql(`create index "governed_decision_account_id_id_index" on "calculation"."governed_decision" ("account_id", "id");`);
    this.addSql(`alter table "calculation"."governed_decision" add constraint "governed_decision_account_id_idempotency_key_unique" unique ("account_id", "idempotency_key");`);

    this.addSql(`create table "calculation"."source_profile_revision" ("id" bigserial primary key, "profile_id" bigint not null, "account_id" bigint not null, "revision" int not null, "snapshot" jsonb not null, "digest" varchar(80) not null, "recorded_at" timestamptz not null);`);
    this.addSql(`alter table "calculation"."source_profile_revision" add constraint "source_profile_revision_profile_id_revision_unique" unique ("profile_id", "revision");`);

    this.addSql(`create table "calculation"."treatment_release" ("id" bigserial primary key, "release_id" varchar(100) not null, "status" varchar(20) not null, "file_sha256" varchar(64) not null, "digest" varchar(80) not null, "content" jsonb not null, "jurisdictions" jsonb not null, "legal_from" varchar(10) not null, "legal_to" varchar(10) null, "rate_release_digest" varchar(80) not null, "imported_by" varchar(100) not null, "imported_at" timestamptz not null, "activated_by" varchar(100) null, "activated_at" timestamptz null);`);
    for (const sql of GOVERNED) this.addSql(sql);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists source_profile_revision_written on "calculation"."source_profile";`);
    this.addSql(`drop function if exists "calculation".record_source_profile_revision();`);
    this.addSql(`drop table if exists "calculation"."governed_decision" cascade;`);
    this.addSql(`drop table if exists "calculation"."source_profile_revision" cascade;`);
    this.addSql(`drop table if exists "calculation"."treatment_release" cascade;`);
    this.addSql(`drop function if exists "calculation".refuse_any_change();`);
    this.addSql(`drop function if exists "calculation".refuse_sealed_release_change();`);
  }

}
