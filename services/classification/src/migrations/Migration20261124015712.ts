import { Migration } from '@mikro-orm/migrations';

/**
 * What the database itself refuses, for every role including the service's own: any change to an
 * approved catalog revision, its codes, a published manifest or its rules, an audit entry or an
 * assignment revision (all append-only or sealed once authoritative).
 */
const IMMUTABILITY = [
  `create function "classification".refuse_any_change() returns trigger language plpgsql as $$
    begin
      raise exception '%.% is append-only: % is refused', tg_table_schema, tg_table_name, tg_op using errcode = 'restrict_violation';
    end $$;`,
  `create function "classification".refuse_sealed_change() returns trigger language plpgsql as $$
    begin
      if old.status in ('approved', 'published') then
        raise exception '%.% row % is sealed (%): % is refused', tg_table_schema, tg_table_name, old.id, old.status, tg_op using errcode = 'restrict_violation';
      end if;
      return case when tg_op = 'DELETE' then old else new end;
    end $$;`,
  `create function "classification".refuse_sealed_child_change() returns trigger language plpgsql as $$
    declare parent_status text;
    begin
      if tg_table_name = 'catalog_code' then
        select status into parent_status from "classification"."catalog_edition" where id = old.edition_id;
      else
        select status into parent_status from "classification"."coverage_manifest" where id = old.manifest_id;
      end if;
      if tg_op = 'UPDATE' or parent_status in ('approved', 'published') then
        raise exception '%.% rows of a sealed parent are immutable: % is refused', tg_table_schema, tg_table_name, tg_op using errcode = 'restrict_violation';
      end if;
      return old;
    end $$;`,
  `create trigger catalog_edition_sealed before update or delete on "classification"."catalog_edition" for each row execute function "classification".refuse_sealed_change();`,
  `create trigger coverage_manifest_sealed before update or delete on "classification"."coverage_manifest" for each row execute function "classification".refuse_sealed_change();`,
  `create trigger catalog_code_sealed before update or delete on "classification"."catalog_code" for each row execute function "classification".refuse_sealed_child_change();`,
  `create trigger coverage_rule_sealed before update or delete on "classification"."coverage_rule" for each row execute function "classification".refuse_sealed_child_change();`,
  ...['catalog_edition', 'catalog_code', 'coverage_manifest', 'coverage_rule'].map((t) => `create trigger ${t}_no_truncate before truncate on "classification"."${t}" for each statement execute function "classification".refuse_any_change();`),
  ...['audit_entry', 'assignment_revision'].flatMap((t) => [
    `create trigger ${t}_append_only before update or delete on "classification"."${t}" for each row execute function "classification".refuse_any_change();`,
    `create trigger ${t}_no_truncate before truncate on "classification"."${t}" for each statement execute function "classification".refuse_any_change();`,
  ]),
];

/**
 * Catalog review workflow, operators, audit log, coverage manifests, assignments and reprocessing jobs.
 * The skeleton tables it replaces could never be written (no RPC or command wrote them), so they are
 * dropped and created again rather than converted column by column.
 */
export class Migration20261124015712 extends Migration {

  override name = 'Migration20261124015712';

  override up(): void | Promise<void> {
    this.addSql(`drop table if exists "classification"."catalog_code";`);
    this.addSql(`drop table if exists "classification"."catalog_edition";`);
    this.addSql(`drop table if exists "classification"."coverage_manifest";`);
    this.addSql(`create table "classification"."catalog_edition" ("id" bigserial primary key, "scheme" varchar(3) not null, "version" varchar(10) not null, "revision" int not null, "status" varchar(20) not null, "legal_from" date not null, "legal_to" date null, "legal_act" varchar(500) not null, "source_url" varchar(500) not null, "file_name" varchar(300) not null, "file_sha256" varchar(64) not null, "raw_file" bytea not null, "layout" varchar(40) not null, "codes_digest" varchar(64) not null, "digest" varchar(80) not null, "row_count" int not null, "level_counts" jsonb not null, "diff" jsonb not null, "base_edition_id" bigint null, "imported_by" varchar(100) not null, "retrieved_at" timestamptz not null, "approved_by" varchar(100) null, "approved_at" timestamptz null);`);
    this.addSql(`alter table "classification"."catalog_edition" add constraint "catalog_edition_scheme_version_revision_unique" unique ("scheme", "version", "revision");`);
    this.addSql(`create table "classification"."catalog_code" ("edition_id" bigint not null, "code" varchar(12) not null, "display_code" varchar(16) not null, "level" varchar(20) not null, "parent_code" varchar(12) null, "self_text" text not null, "legal_text" text not null, "includes" text null, "excludes" text null, "concept_id" varchar(20) not null, "position" int not null, primary key ("edition_id", "code"));`);
    this.addSql(`create table "classification"."coverage_manifest" ("id" bigserial primary key, "name" varchar(60) not null, "version" int not null, "status" varchar(20) not null, "file_name" varchar(300) not null, "file_sha256" varchar(64) not null, "raw_file" bytea not null, "digest" varchar(80) not null, "rule_count" int not null, "imported_by" varchar(100) not null, "imported_at" timestamptz not null, "published_by" varchar(100) null, "published_at" timestamptz null);`);
    this.addSql(`alter table "classification"."coverage_manifest" add constraint "coverage_manifest_name_version_unique" unique ("name", "version");`);
    this.addSql(`create table "classification"."assignment_revision" ("id" uuid not null, "assignment_id" uuid not null, "revision" int not null, "account_id" bigint not null, "integration_id" bigint not null, "product_reference" varchar(200) not null, "variant_reference" varchar(200) null, "state" varchar(20) not null, "scheme" varchar(3) not null, "exact_code" varchar(12) not null, "display_code" varchar(16) not null, "valid_from" date not null, "valid_to" date null, "valid_to_source" varchar(20) not null, "catalog_version" varchar(10) not null, "catalog_edition_id" bigint not null, "catalog_digest" varchar(80) not null, "request_digest" varchar(64) not null, "backdated" boolean not null, "attestation" jsonb null, "impact_review" varchar(20) null, "api_key_id" bigint not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "assignment_revision_account_id_integration_id_prod_f95e1_index" on "classification"."assignment_revision" ("account_id", "integration_id", "product_reference");`);
    this.addSql(`create index "assignment_revision_account_id_created_at_index" on "classification"."assignment_revision" ("account_id", "created_at");`);
    this.addSql(`alter table "classification"."assignment_revision" add constraint "assignment_revision_assignment_id_revision_unique" unique ("assignment_id", "revision");`);
    this.addSql(`create table "classification"."audit_entry" ("id" bigserial primary key, "at" timestamptz not null, "operator" varchar(100) not null, "action" varchar(40) not null, "target" varchar(100) null, "outcome" varchar(10) not null, "reason" varchar(60) null, "detail" jsonb not null);`);
    this.addSql(`create table "classification"."coverage_rule" ("manifest_id" bigint not null, "rule_id" varchar(100) not null, "jurisdiction" varchar(2) not null, "scheme" varchar(3) not null, "catalog_version" varchar(10) not null, "code" varchar(12) not null, "coverage" varchar(10) not null, "legal_from" date not null, "legal_to" date null, "tax_class_id" varchar(60) not null, "supply_kind" varchar(30) not null, "status" varchar(20) not null, "legal_reference" varchar(500) not null, primary key ("manifest_id", "rule_id"));`);
    this.addSql(`create index "coverage_rule_manifest_id_scheme_catalog_version_code_index" on "classification"."coverage_rule" ("manifest_id", "scheme", "catalog_version", "code");`);
    this.addSql(`create table "classification"."operator" ("id" bigserial primary key, "name" varchar(100) not null, "totp_secret" bytea not null, "last_totp_step" bigint null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "classification"."operator" add constraint "operator_name_unique" unique ("name");`);
    this.addSql(`create table "classification"."reprocess_job" ("id" bigserial primary key, "account_id" bigint not null, "integration_id" bigint not null, "product_reference" varchar(200) not null, "reason" varchar(40) not null, "status" varchar(20) not null, "attempts" int not null, "enqueued_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "reprocess_job_status_enqueued_at_index" on "classification"."reprocess_job" ("status", "enqueued_at");`);
    this.addSql(`create unique index "reprocess_job_one_pending_per_product" on "classification"."reprocess_job" ("account_id", "integration_id", "product_reference") where "status" = 'pending';`);
    for (const sql of IMMUTABILITY) this.addSql(sql);
  }

  override down(): void | Promise<void> {
    for (const t of ['assignment_revision', 'audit_entry', 'coverage_rule', 'operator', 'reprocess_job', 'catalog_code', 'catalog_edition', 'coverage_manifest']) this.addSql(`drop table if exists "classification"."${t}" cascade;`);
    this.addSql(`drop function if exists "classification".refuse_sealed_change() cascade;`);
    this.addSql(`drop function if exists "classification".refuse_any_change() cascade;`);
    this.addSql(`drop function if exists "classification".refuse_sealed_child_change() cascade;`);
  }

}
