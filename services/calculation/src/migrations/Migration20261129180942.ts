import { Migration } from '@mikro-orm/migrations';

/**
 * The rate evidence of a calculation stored once per rate window (issue 24): `rate_evidence_doc` holds each
 * window's evidence document, named by the SHA-256 of its JSON text, and a calculation refers to it by
 * `rate_evidence_digest` instead of carrying a copy (1.4 KB of 2.1 KB per row, written compressed to TOAST on
 * every insert). Calculations stored before keep their inline copy; exactly one of the two is set. The
 * documents are append-only (every role, the service's own included), so a reference never dangles and a
 * stored calculation's evidence never changes under it. No foreign key: its check would take a share lock on
 * the window's one document row for every insert (all concurrent inserts of a window on the same row).
 */
export class Migration20261129180942 extends Migration {

  override name = 'Migration20261129180942';

  override up(): void | Promise<void> {
    this.addSql(`create table "calculation"."rate_evidence_doc" ("digest" varchar(80) not null, "doc" jsonb not null, "created_at" timestamptz not null, primary key ("digest"));`);

    this.addSql(`alter table "calculation"."calculation" add "rate_evidence_digest" varchar(80) null;`);
    this.addSql(`alter table "calculation"."calculation" alter column "rate_evidence" drop not null;`);
    this.addSql(`alter table "calculation"."calculation" add constraint "calculation_rate_evidence_one" check (num_nonnulls("rate_evidence", "rate_evidence_digest") = 1);`);
    this.addSql(`create trigger rate_evidence_doc_append_only before update or delete on "calculation"."rate_evidence_doc" for each row execute function "calculation".refuse_any_change();`);
    this.addSql(`create trigger rate_evidence_doc_no_truncate before truncate on "calculation"."rate_evidence_doc" for each statement execute function "calculation".refuse_any_change();`);
  }

  override down(): void | Promise<void> {
    // Back to inline evidence (the documents copied into the rows that name them) before the table goes.
    this.addSql(`alter table "calculation"."calculation" drop constraint "calculation_rate_evidence_one";`);
    this.addSql(`update "calculation"."calculation" c set "rate_evidence" = d."doc" from "calculation"."rate_evidence_doc" d where c."rate_evidence" is null and d."digest" = c."rate_evidence_digest";`);
    this.addSql(`alter table "calculation"."calculation" alter column "rate_evidence" set not null;`);
    this.addSql(`alter table "calculation"."calculation" drop column "rate_evidence_digest";`);
    this.addSql(`drop table if exists "calculation"."rate_evidence_doc" cascade;`);
  }

}
