import { Migration } from '@mikro-orm/migrations';

/**
 * The supply-event contract of the ledger. The skeleton table it replaces could never be written
 * (no endpoint or RPC wrote it), so it is dropped rather than converted column by column.
 * Committed events are append-only in the database itself: a trigger refuses UPDATE and DELETE
 * for every role, including the service's own.
 */
export class Migration20261123232807 extends Migration {

  override name = 'Migration20261123232807';

  override up(): void | Promise<void> {
    this.addSql(`drop table if exists "ledger"."supply_event";`);
    this.addSql(`create table "ledger"."supply_event" ("id" uuid not null, "account_id" bigint not null, "sequence" bigint not null, "event_id" varchar(100) not null, "content_digest" varchar(80) not null, "recorded_at" timestamptz not null, "event_type" varchar(20) not null, "original_event_id" varchar(100) null, "occurred_at" timestamptz not null, "supply_kind" varchar(30) not null, "customer_type" varchar(3) not null, "country_of_consumption" varchar(2) not null, "dispatch_country" varchar(2) null, "supplier_establishment_country" varchar(2) null, "currency" varchar(3) not null, "net_amount_minor" bigint not null, "vat_amount_minor" bigint not null, "vat_rate_bps" int not null, "rate_category" varchar(20) not null, "classification_status" varchar(20) not null, "tax_class_id" varchar(60) null, "product_reference" varchar(200) null, "variant_reference" varchar(200) null, "order_reference" varchar(200) null, "integration_id" bigint null, "source_id" varchar(100) null, "calculation_id" uuid null, "consignment_reference" varchar(100) null, "intrinsic_value_eur_minor" bigint null, "third_country_origin" varchar(2) null, "excise_goods" boolean null, primary key ("id"));`);
    this.addSql(`create index "supply_event_account_id_occurred_at_index" on "ledger"."supply_event" ("account_id", "occurred_at");`);
    this.addSql(`alter table "ledger"."supply_event" add constraint "supply_event_account_id_event_id_unique" unique ("account_id", "event_id");`);
    this.addSql(`alter table "ledger"."supply_event" add constraint "supply_event_account_id_sequence_unique" unique ("account_id", "sequence");`);
    this.addSql(`create table "ledger"."ledger_head" ("account_id" bigint not null, "sequence" bigint not null, primary key ("account_id"));`);
    this.addSql(`create function "ledger".refuse_supply_event_change() returns trigger language plpgsql as $$
      begin
        raise exception 'supply events are append-only: % is refused', tg_op using errcode = 'restrict_violation';
      end $$;`);
    this.addSql(`create trigger supply_event_append_only before update or delete on "ledger"."supply_event" for each row execute function "ledger".refuse_supply_event_change();`);
    this.addSql(`create trigger supply_event_no_truncate before truncate on "ledger"."supply_event" for each statement execute function "ledger".refuse_supply_event_change();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "ledger"."ledger_head";`);
    this.addSql(`drop table if exists "ledger"."supply_event";`);
    this.addSql(`drop function if exists "ledger".refuse_supply_event_change();`);
  }

}
